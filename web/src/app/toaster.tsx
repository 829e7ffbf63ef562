import { Toaster } from 'sonner';
import { TOAST_DURATION_MS } from '../../../contracts/constants';

/** SPEC §8/§9 toasts: top-right, 5 seconds, dark theme. Loaded in its own chunk (see providers.tsx). */
export default function AppToaster() {
  return <Toaster position="top-right" duration={TOAST_DURATION_MS} theme="dark" richColors closeButton />;
}
