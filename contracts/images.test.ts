import { describe, expect, it } from 'vitest';
import { IMAGE_MAX_WIDTH, IMAGE_VARIANT_WIDTH, responsiveImage } from './images';

describe('responsiveImage', () => {
  it('offers the copy and the original of an uploaded picture at their widths', () => {
    const url = '/uploads/eventImg/0c7f3bde-5b0e-4a57-9b7e-2b4f1f0e8a11.webp';
    expect(responsiveImage(url, '100vw')).toEqual({
      srcSet: `/uploads/w${IMAGE_VARIANT_WIDTH}/eventImg/0c7f3bde-5b0e-4a57-9b7e-2b4f1f0e8a11.webp ${IMAGE_VARIANT_WIDTH}w, ${url} ${IMAGE_MAX_WIDTH}w`,
      sizes: '100vw',
      src: url,
    });
  });

  it('leaves any other address alone', () => {
    for (const url of ['/uploads/eventImg/test.webp', 'https://example.com/a.webp', '/favicon.svg', '']) {
      expect(responsiveImage(url, '100vw')).toEqual({ src: url });
    }
  });
});
