import { Briefcase, Code2, Mail, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { StartLink } from '../components/start-link';
import { Badge, Card, PageContainer, PageHeader } from '../components/ui';

type Developer = {
  name: string;
  role: string;
  initials: string;
  bio: string;
  skills: string[];
  codeHost: string;
  network: string;
  email: string;
};

/** Two developer cards (role, bio, skills, links). */
const DEVELOPERS: Developer[] = [
  {
    name: 'Amira Haddad',
    role: 'Full-Stack Engineer · Frontend & Product',
    initials: 'AH',
    bio: 'Amira designs the builder experience: the step-by-step wizards, the live build screens and the dashboard. She cares about interfaces that make complex AI pipelines feel simple and accessible to everyone.',
    skills: ['React', 'TypeScript', 'Tailwind CSS', 'Accessibility', 'UX design'],
    codeHost: 'https://github.com/agentloom',
    network: 'https://www.linkedin.com/company/agentloom',
    email: 'amira@agentloom.dev',
  },
  {
    name: 'Daniel Okafor',
    role: 'Backend & AI Engineer · Pipelines and Infrastructure',
    initials: 'DO',
    bio: 'Daniel builds the engine behind the wizard: the API, the build workers and the code generator that turns a configuration into a RAG or SQL agent project with containers and CI/CD.',
    skills: ['Node.js', 'NestJS', 'Python', 'LangChain', 'Vector databases', 'Docker'],
    codeHost: 'https://github.com/agentloom',
    network: 'https://www.linkedin.com/company/agentloom',
    email: 'daniel@agentloom.dev',
  },
];

/** A developer's link with its icon; `newTab` opens another site without handing it this page. */
function IconLink({
  href,
  icon: Icon,
  newTab = false,
  children,
}: {
  href: string;
  icon: LucideIcon;
  newTab?: boolean;
  children: ReactNode;
}) {
  return (
    <a
      href={href}
      target={newTab ? '_blank' : undefined}
      rel={newTab ? 'noopener noreferrer' : undefined}
      className="inline-flex items-center gap-2 rounded-md px-2 py-1 text-sm font-medium text-slate-700 hover:text-indigo-700 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 dark:text-slate-200 dark:hover:text-indigo-300"
    >
      <Icon aria-hidden="true" className="h-4 w-4" />
      {children}
    </a>
  );
}

export function DevelopersPage() {
  return (
    <PageContainer size="lg">
      <PageHeader
        title="Meet the developers"
        description="Agentloom is built by a small team who wanted AI agents to be something anyone can make."
      />
      <div className="grid gap-6 md:grid-cols-2">
        {DEVELOPERS.map((developer) => (
          <Card as="article" key={developer.name} className="flex flex-col">
            <div className="flex items-center gap-4">
              <span
                aria-hidden="true"
                className="grid h-16 w-16 shrink-0 place-items-center rounded-full bg-gradient-to-br from-indigo-600 to-fuchsia-600 text-xl font-bold text-white"
              >
                {developer.initials}
              </span>
              <div>
                <h2 className="text-xl font-semibold text-slate-900 dark:text-white">
                  {developer.name}
                </h2>
                <p className="text-sm font-medium text-indigo-700 dark:text-indigo-300">
                  {developer.role}
                </p>
              </div>
            </div>
            <p className="mt-4 text-sm text-slate-600 dark:text-slate-300">{developer.bio}</p>
            <h3 className="sr-only">Skills</h3>
            <ul className="mt-4 flex flex-wrap gap-2">
              {developer.skills.map((skill) => (
                <li key={skill}>
                  <Badge tone="indigo">{skill}</Badge>
                </li>
              ))}
            </ul>
            <div className="mt-auto flex flex-wrap gap-2 pt-6">
              <IconLink href={developer.codeHost} icon={Code2} newTab>
                GitHub<span className="sr-only"> of {developer.name}</span>
              </IconLink>
              <IconLink href={developer.network} icon={Briefcase} newTab>
                LinkedIn<span className="sr-only"> of {developer.name}</span>
              </IconLink>
              <IconLink href={`mailto:${developer.email}`} icon={Mail}>
                Email<span className="sr-only"> {developer.name}</span>
              </IconLink>
            </div>
          </Card>
        ))}
      </div>
      <div className="mt-12 text-center">
        <StartLink>Get Started</StartLink>
      </div>
    </PageContainer>
  );
}
