import wasmUrl from 'zxing-wasm/reader/zxing_reader.wasm?url';

/** What the scanner needs of a BarcodeDetector (the browser's, or the polyfill's). */
export interface QrDetector {
  detect(source: HTMLVideoElement): Promise<Array<{ rawValue: string }>>;
}

interface NativeDetectorClass {
  new (options: { formats: string[] }): QrDetector;
  getSupportedFormats(): Promise<string[]>;
}

/**
 * The browser's BarcodeDetector when it reads QR codes; otherwise the barcode-detector polyfill (ZXing in
 * WebAssembly), loaded only then, with its .wasm file served by us (Vite copies it into the build): nothing
 * comes from a CDN.
 */
let detector: Promise<QrDetector> | undefined;

/**
 * The detector, made once: the scanner page asks for it as soon as it opens, so that the polyfill and its
 * WebAssembly are there before the camera starts, and before any loss of network.
 */
export function getQrDetector(): Promise<QrDetector> {
  detector ??= createQrDetector().catch((error: unknown) => {
    detector = undefined;
    throw error;
  });
  return detector;
}

async function createQrDetector(): Promise<QrDetector> {
  const native = (globalThis as { BarcodeDetector?: NativeDetectorClass }).BarcodeDetector;
  if (native) {
    try {
      if ((await native.getSupportedFormats()).includes('qr_code')) return new native({ formats: ['qr_code'] });
    } catch {
      // Declared but unusable: the polyfill does it.
    }
  }
  const { BarcodeDetector, prepareZXingModule } = await import('barcode-detector/ponyfill');
  await prepareZXingModule({
    overrides: {
      locateFile: (path: string, prefix: string) => (path.endsWith('.wasm') ? wasmUrl : prefix + path),
    },
    fireImmediately: true,
  });
  return new BarcodeDetector({ formats: ['qr_code'] });
}
