/**
 * Outside links shown in the navigation, footer and landing page. One place, so the team's real
 * handles can be set without hunting through the pages.
 */
export const SITE_LINKS = {
  /** "Contact us" opens a chat with the team on a messaging service. */
  contactChat:
    'https://wa.me/4915510000000?text=' +
    encodeURIComponent('Hi Agentloom team, I have a question about building an agent.'),
  codeHost: 'https://github.com/agentloom',
  professionalNetwork: 'https://www.linkedin.com/company/agentloom',
  socialPosts: 'https://x.com/agentloom',
  mail: 'mailto:hello@agentloom.dev',
  mailAddress: 'hello@agentloom.dev',
  privacyMail: 'mailto:privacy@agentloom.dev',
  privacyMailAddress: 'privacy@agentloom.dev',
} as const;

export const TAGLINE = 'Build and deploy AI agents through an intuitive, step-by-step interface.';
