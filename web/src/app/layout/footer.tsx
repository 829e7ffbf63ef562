import { Link } from 'react-router';
import { Brand } from './header';

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

export function Footer() {
  return (
    <footer className="mt-auto border-t border-border bg-surface-raised">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:px-6 md:grid-cols-3 lg:px-8">
        <div className="flex flex-col gap-3">
          <Brand />
          <p className="text-sm text-fg-muted">Discover events you love and book your tickets in seconds.</p>
        </div>
        <nav aria-label="Footer" className="flex flex-col gap-2 text-sm">
          <Link to="/" className="hover:text-accent">
            Home
          </Link>
          <Link to="/contact" className="hover:text-accent">
            Event Hosting
          </Link>
        </nav>
        <div className="flex flex-col gap-3">
          <ul className="flex gap-3" aria-label="Social networks">
            {socials.map((s) => (
              <li key={s.name}>
                <a
                  href={s.href}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="grid size-10 place-items-center rounded-full border border-border text-fg-muted hover:text-accent"
                >
                  <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5" fill="currentColor">
                    <path d={s.path} />
                  </svg>
                  <span className="sr-only">{s.name}</span>
                </a>
              </li>
            ))}
          </ul>
          <div className="flex gap-4 text-sm">
            <button type="button" className="text-fg-muted hover:text-accent">
              Privacy policy
            </button>
            <button type="button" className="text-fg-muted hover:text-accent">
              Terms of service
            </button>
          </div>
        </div>
      </div>
      <p className="border-t border-border py-4 text-center text-xs text-fg-muted">
        © {new Date().getFullYear()} Eventry
      </p>
    </footer>
  );
}
