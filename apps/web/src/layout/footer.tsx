import { AtSign, Briefcase, Code2, Mail } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Logo } from './logo';
import { SITE_LINKS, TAGLINE } from './site';

type FooterItem = { label: string; to?: string };

/**
 * docs/product.md#navigation-footer-and-theme: three real links; the other entries are placeholders
 * without any target.
 */
const COLUMNS: { title: string; items: FooterItem[] }[] = [
  {
    title: 'Product',
    items: [
      { label: 'Features', to: '/features' },
      { label: 'Pipeline Builder' },
      { label: 'Agent Gallery' },
      { label: 'Templates' },
    ],
  },
  {
    title: 'Resources',
    items: [
      { label: 'Documentation', to: '/docs' },
      { label: 'Tutorials' },
      { label: 'API Reference' },
      { label: 'Community' },
    ],
  },
  {
    title: 'Company',
    items: [{ label: 'About' }, { label: 'Blog' }, { label: 'Careers' }, { label: 'Contact' }],
  },
  {
    title: 'Legal',
    items: [
      { label: 'Privacy Policy', to: '/privacy-policy' },
      { label: 'Terms of Service' },
      { label: 'Cookie Policy' },
    ],
  },
];

const SOCIAL: { label: string; href: string; icon: ReactNode }[] = [
  {
    label: 'Agentloom on GitHub',
    href: SITE_LINKS.codeHost,
    icon: <Code2 aria-hidden="true" className="h-5 w-5" />,
  },
  {
    label: 'Agentloom on LinkedIn',
    href: SITE_LINKS.professionalNetwork,
    icon: <Briefcase aria-hidden="true" className="h-5 w-5" />,
  },
  {
    label: 'Agentloom on X',
    href: SITE_LINKS.socialPosts,
    icon: <AtSign aria-hidden="true" className="h-5 w-5" />,
  },
];

const focus =
  'rounded focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 dark:focus-visible:ring-indigo-400';

export function Footer() {
  return (
    <footer className="border-t border-slate-200 bg-slate-50 dark:border-slate-800 dark:bg-slate-950">
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-12 sm:px-6 lg:grid-cols-[1.4fr_repeat(4,1fr)] lg:px-8">
        <div className="space-y-4">
          <Logo />
          <p className="max-w-xs text-sm text-slate-600 dark:text-slate-300">{TAGLINE}</p>
          <ul className="flex items-center gap-3" aria-label="Social links">
            {SOCIAL.map((item) => (
              <li key={item.href}>
                <a
                  href={item.href}
                  target="_blank"
                  rel="noopener noreferrer"
                  aria-label={item.label}
                  title={item.label}
                  className={`${focus} grid h-9 w-9 place-items-center text-slate-600 hover:text-indigo-700 dark:text-slate-300 dark:hover:text-indigo-300`}
                >
                  {item.icon}
                </a>
              </li>
            ))}
            <li>
              <a
                href={SITE_LINKS.mail}
                aria-label={`E-mail ${SITE_LINKS.mailAddress}`}
                title={SITE_LINKS.mailAddress}
                className={`${focus} grid h-9 w-9 place-items-center text-slate-600 hover:text-indigo-700 dark:text-slate-300 dark:hover:text-indigo-300`}
              >
                <Mail aria-hidden="true" className="h-5 w-5" />
              </a>
            </li>
          </ul>
        </div>
        <div className="grid grid-cols-2 gap-8 sm:grid-cols-4 lg:contents">
          {COLUMNS.map((column) => (
            <div key={column.title}>
              <h2 className="text-sm font-semibold text-slate-900 dark:text-white">
                {column.title}
              </h2>
              <ul className="mt-3 space-y-2 text-sm">
                {column.items.map((item) => (
                  <li key={item.label}>
                    {item.to ? (
                      <Link
                        to={item.to}
                        className={`${focus} text-slate-700 underline-offset-4 hover:text-indigo-700 hover:underline dark:text-slate-200 dark:hover:text-indigo-300`}
                      >
                        {item.label}
                      </Link>
                    ) : (
                      <span className="text-slate-600 dark:text-slate-400">{item.label}</span>
                    )}
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </div>
      </div>
      <div className="border-t border-slate-200 dark:border-slate-800">
        <p className="mx-auto max-w-7xl px-4 py-6 text-xs text-slate-600 sm:px-6 lg:px-8 dark:text-slate-400">
          © {new Date().getFullYear()} Agentloom. All rights reserved.
        </p>
      </div>
    </footer>
  );
}
