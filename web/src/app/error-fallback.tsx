import { commonMessages } from '../../../contracts/messages/common';
import { buttonClasses } from '../components/ui/button';

/** The top-level error fallback: 'Something went wrong.' */
export function ErrorFallback() {
  return (
    <div role="alert" className="flex min-h-dvh flex-col items-center justify-center gap-6 p-6 text-center">
      <h1 className="text-2xl font-bold">{commonMessages.renderFailure}</h1>
      <a href="/" className={buttonClasses('primary')}>
        {commonMessages.backToHome}
      </a>
    </div>
  );
}
