import { toString as qrToString } from 'qrcode';
import { html, SafeHtml, trustedHtml } from './payment-page.html';
import { safeHttpUrl } from './payment-page.state';

const IMAGE_DATA_URL = /^data:image\/(png|jpeg|webp);base64,[A-Za-z0-9+/]+={0,2}$/;

export interface RenderedQr {
  image: SafeHtml;
  /** The payload when it is a web link, so a payer on the same phone can open it instead of scanning. */
  link: string | null;
}

/**
 * A payment detail's `qrCode` is normally the payload to encode (an SBP or bank link, an EMV
 * string): it is drawn server-side as inline SVG, so the page loads no image and needs no
 * script for it. An operator may also have stored a ready image as a base64 data URL; that is
 * shown as it is. A payload too long for a QR code yields null and the page shows no QR.
 */
export async function renderQr(payload: string | null): Promise<RenderedQr | null> {
  const value = payload?.trim();
  if (!value) return null;
  if (value.startsWith('data:')) {
    return IMAGE_DATA_URL.test(value)
      ? { image: html`<img src="${value}" alt="" />`, link: null }
      : null;
  }
  try {
    const svg = await qrToString(value, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
    // The library's output is SVG path data computed from the payload, never the payload text.
    return { image: trustedHtml(svg.trim()), link: safeHttpUrl(value) };
  } catch {
    return null;
  }
}
