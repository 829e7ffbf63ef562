import { useState } from 'react';
import { Link } from 'react-router';
import type { MessageKey } from '../../../../contracts/i18n/types';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { useI18n } from '../../lib/i18n';
import { Brand } from './brand';
import { LanguageSwitch } from './language-switch';

const socials = [
  {
    name: 'Facebook',
    href: 'https://facebook.com',
    path: 'M14 8h3V4h-3c-2.8 0-4 1.8-4 4.3V10H7v4h3v8h4v-8h3l1-4h-4V8.5c0-.3.2-.5.5-.5z',
  },
  {
    name: 'Instagram',
    href: 'https://instagram.com',
    path: 'M7 3h10a4 4 0 014 4v10a4 4 0 01-4 4H7a4 4 0 01-4-4V7a4 4 0 014-4zm5 5a4 4 0 100 8 4 4 0 000-8zm5.5-1.5a1 1 0 100 2 1 1 0 000-2z',
  },
  {
    name: 'X (Twitter)',
    href: 'https://x.com',
    path: 'M4 4l7 9-7 7h2l6-6 5 6h4l-7-9 6-7h-2l-5 5-4-5z',
  },
];

/** The policies' titles and paragraphs (catalogue.privacy1…, catalogue.terms1…). */
const policies = {
  privacy: {
    title: 'catalogue.privacyPolicy',
    body: ['catalogue.privacy1', 'catalogue.privacy2', 'catalogue.privacy3'],
  },
  terms: {
    title: 'catalogue.termsOfService',
    body: ['catalogue.terms1', 'catalogue.terms2', 'catalogue.terms3'],
  },
} as const satisfies Record<string, { title: MessageKey; body: readonly MessageKey[] }>;

type Policy = keyof typeof policies;

export function Footer() {
  const { t, number } = useI18n();
  const [policy, setPolicy] = useState<Policy | null>(null);
  const shown = policy ? policies[policy] : null;
  return (
    <footer className="mt-auto border-t border-border bg-surface-raised">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:px-6 md:grid-cols-3 lg:px-8">
        <div className="flex flex-col gap-3">
          <Brand />
          <p className="max-w-xs text-sm text-fg-muted">{t('catalogue.footerTagline')}</p>
        </div>
        <nav aria-label={t('catalogue.footerNavigation')} className="flex flex-col gap-2 text-sm">
          <Link to="/" className="w-fit hover:text-accent">
            {t('catalogue.home')}
          </Link>
          <Link to="/contact" className="w-fit hover:text-accent">
            {t('catalogue.eventHosting')}
          </Link>
          <LanguageSwitch className="w-fit px-0 py-0 font-normal" />
        </nav>
        <div className="flex flex-col gap-4">
          <ul className="flex gap-3" aria-label={t('catalogue.socialNetworks')}>
            {socials.map((s) => (
              <li key={s.name}>
                <a
                  href={s.href}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="grid size-10 place-items-center rounded-full border border-border text-fg-muted hover:border-accent hover:text-accent"
                >
                  <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5" fill="currentColor">
                    <path d={s.path} />
                  </svg>
                  <span className="sr-only">{s.name}</span>
                </a>
              </li>
            ))}
          </ul>
          <div className="flex flex-wrap gap-x-4 gap-y-2 text-sm whitespace-nowrap">
            <button type="button" className="text-fg-muted hover:text-accent" onClick={() => setPolicy('privacy')}>
              {t('catalogue.privacyPolicy')}
            </button>
            <button type="button" className="text-fg-muted hover:text-accent" onClick={() => setPolicy('terms')}>
              {t('catalogue.termsOfService')}
            </button>
          </div>
        </div>
      </div>
      <p className="border-t border-border py-4 text-center text-xs text-fg-muted">
        {t('catalogue.copyright', { year: number(new Date().getFullYear()) })}
      </p>
      <Dialog open={shown !== null} onClose={() => setPolicy(null)} title={shown ? t(shown.title) : ''}>
        <div className="flex flex-col gap-3 text-sm leading-relaxed text-fg-muted">
          {shown?.body.map((paragraph) => (
            <p key={paragraph}>{t(paragraph)}</p>
          ))}
        </div>
        <div className="mt-2 flex justify-end">
          <Button variant="secondary" onClick={() => setPolicy(null)} data-autofocus>
            {t('catalogue.close')}
          </Button>
        </div>
      </Dialog>
    </footer>
  );
}
