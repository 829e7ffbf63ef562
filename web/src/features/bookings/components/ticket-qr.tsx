import { useMemo } from 'react';
import { encode } from 'uqr';
import { QR_ENCODE_OPTIONS, qrPath } from '../../../../../contracts/ticket-qr';

/**
 * A ticket's QR code: black on white in every theme (scanners want dark modules on a light ground), with its
 * quiet zone, at least 240 CSS pixels wide. An image with a name for screen readers.
 */
export function TicketQr({ text, label }: { text: string; label: string }) {
  const { size, path } = useMemo(() => qrPath(encode(text, QR_ENCODE_OPTIONS).data), [text]);
  return (
    <svg
      role="img"
      aria-label={label}
      viewBox={`0 0 ${size} ${size}`}
      shapeRendering="crispEdges"
      className="block size-60 shrink-0 rounded-md bg-white sm:size-64"
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
