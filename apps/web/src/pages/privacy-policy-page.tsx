import { SITE_LINKS } from '../layout/site';
import { Card, PageContainer, PageHeader } from '../components/ui';

/** Information collected, use, data security, contact. */
export function PrivacyPolicyPage() {
  return (
    <PageContainer size="md">
      <PageHeader
        title="Privacy Policy"
        description="How Agentloom collects, uses and protects your information."
      />
      <Card className="space-y-8 text-slate-700 dark:text-slate-200 [&_h2]:text-xl [&_h2]:font-semibold [&_h2]:text-slate-900 dark:[&_h2]:text-white [&_p]:mt-3 [&_ul]:mt-3 [&_ul]:list-disc [&_ul]:space-y-1 [&_ul]:pl-5">
        <section>
          <h2>Information we collect</h2>
          <p>We collect only what we need to run the service:</p>
          <ul>
            <li>Account details: your username, e-mail address and a hash of your password.</li>
            <li>Profile details you choose to add: full name, phone number, bio and picture.</li>
            <li>
              The configuration of the agents you build, and the files or database connection
              details you give the wizard.
            </li>
            <li>The LLM provider API keys you store in the key vault.</li>
            <li>Basic technical logs (time, request path, status) to keep the service reliable.</li>
          </ul>
        </section>
        <section>
          <h2>How we use your information</h2>
          <ul>
            <li>To sign you in and keep your session secure.</li>
            <li>To build, preview and package the agents you configure.</li>
            <li>To send the e-mails you ask for, such as password reset links.</li>
            <li>To find and fix errors and to protect the service from abuse.</li>
          </ul>
          <p>
            We do not sell your data, and we do not use your files, prompts or keys to train any
            model.
          </p>
        </section>
        <section>
          <h2>Data security</h2>
          <p>
            Passwords are stored only as salted hashes. API keys and database credentials are
            encrypted at rest and are shown masked; the full value is revealed only when you ask for
            it. Traffic between your browser and our servers is encrypted, and access to production
            systems is limited to the people who operate them. You can delete your agents and keys
            at any time.
          </p>
        </section>
        <section>
          <h2>Contact</h2>
          <p>
            Questions about this policy or your data? Write to{' '}
            <a
              href={SITE_LINKS.privacyMail}
              className="font-medium text-indigo-700 underline underline-offset-4 dark:text-indigo-300"
            >
              {SITE_LINKS.privacyMailAddress}
            </a>{' '}
            and we will answer within 30 days.
          </p>
        </section>
      </Card>
    </PageContainer>
  );
}
