import defaultAvatar from '../../../assets/default-avatar.svg';
import { cn } from '../../../components/ui/cn';

/** A profile picture, or the bundled default avatar when the user has none. */
export function Avatar({ url, className, alt = '' }: { url: string | null; className?: string; alt?: string }) {
  return (
    <img
      src={url || defaultAvatar}
      alt={alt}
      className={cn('rounded-full bg-surface-overlay object-cover', className)}
      onError={(event) => {
        // A picture that cannot be loaded falls back to the default too.
        if (event.currentTarget.src !== defaultAvatar) event.currentTarget.src = defaultAvatar;
      }}
    />
  );
}
