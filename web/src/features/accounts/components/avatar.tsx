import defaultAvatar from '../../../assets/default-avatar.svg';
import { cn } from '../../../components/ui/cn';

/**
 * A profile picture, or the bundled default avatar when the user has none. `size` is its displayed width
 * and height in CSS pixels: with them the browser reserves the square before the image arrives.
 */
export function Avatar({
  url,
  size,
  className,
  alt = '',
}: {
  url: string | null;
  size: number;
  className?: string;
  alt?: string;
}) {
  return (
    <img
      src={url || defaultAvatar}
      alt={alt}
      width={size}
      height={size}
      className={cn('rounded-full bg-surface-overlay object-cover', className)}
      onError={(event) => {
        // A picture that cannot be loaded falls back to the default too.
        if (event.currentTarget.src !== defaultAvatar) event.currentTarget.src = defaultAvatar;
      }}
    />
  );
}
