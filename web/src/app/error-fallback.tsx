import { messages } from '../../../contracts/messages';
import { buttonClasses } from '../components/ui/button';

/** The top-level error fallback: 'Something went wrong.' */
export function ErrorFallback() {
  return (
    <div role="alert" className="flex min-h-dvh flex-col items-center justify-center gap-6 p-6 text-center">
      <h1 className="text-2xl font-bold">{messages.common.renderFailure}</h1>
      <a href="/" className={buttonClasses('primary')}>
        {messages.common.backToHome}
      </a>
    </div>
  );
}
