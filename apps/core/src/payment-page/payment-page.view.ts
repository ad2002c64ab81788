import { ALLOWED_DOCUMENT_TYPES } from '@app/documents';
import { html, SafeHtml, trustedHtml } from './payment-page.html';
import {
  formatAmount,
  messagesFor,
  type NoticeKey,
  type PageLanguage,
  type PageMessages,
} from './payment-page.i18n';
import type { PageState } from './payment-page.state';

/** Receiving details as the payer sees them: the card number in full, only on this page. */
export interface ReceivingDetails {
  cardNumber: string | null;
  bankName: string | null;
  cardName: string | null;
  phoneNumber: string | null;
  accountNumber: string | null;
  ibanNumber: string | null;
  /** The QR code as markup: inline SVG rendered by the server, or the stored image itself. */
  qrImage: SafeHtml | null;
  /** The QR payload itself when it is an http(s) link, so a phone can open it directly. */
  qrLink: string | null;
}

export interface PaymentPageView {
  id: string;
  language: PageLanguage;
  state: PageState;
  amount: string;
  currency: string;
  description: string | null;
  isTest: boolean;
  /** Null whenever the payin is final: an expired or closed payin never shows where to pay. */
  details: ReceivingDetails | null;
  messengerUrl: string | null;
  notice: NoticeKey | null;
}

export interface PageAssets {
  scriptPath: string;
  stylePath: string;
}

const OK_NOTICES: ReadonlySet<NoticeKey> = new Set<NoticeKey>([
  'paid_reported',
  'receipt_uploaded',
]);

/** How often the page asks for the status; the script backs off on network errors. */
export const POLL_INTERVAL_MS = 3000;
/** How long the final result stays on screen before the redirect to the shop. */
export const REDIRECT_DELAY_MS = 4000;

/** `4111111111111111` → `4111 1111 1111 1111`; IBANs are grouped the same way. */
export function groupInFours(value: string): string {
  return value
    .replace(/\s+/g, '')
    .replace(/(.{4})(?=.)/g, '$1 ')
    .trim();
}

function layout(language: PageLanguage, title: string, assets: PageAssets, body: SafeHtml): string {
  // Assets are referenced relative to /pay/<id>, so the page keeps working behind a proxy
  // that serves the core under a path prefix (PUBLIC_BASE_URL with a path).
  return html`<!doctype html>
    <html lang="${language}" dir="ltr">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex, nofollow" />
        <meta name="referrer" content="no-referrer" />
        <meta name="color-scheme" content="light" />
        <title>${title}</title>
        <link rel="icon" href="data:," />
        <link rel="stylesheet" href="${assets.stylePath}" />
        <script src="${assets.scriptPath}" defer></script>
      </head>
      <body>
        ${body}
      </body>
    </html> `.value;
}

interface FieldSpec {
  key: keyof PageMessages['fields'];
  display: string;
  copy: string | null;
  mono: boolean;
}

function detailFields(details: ReceivingDetails): FieldSpec[] {
  const fields: FieldSpec[] = [];
  if (details.cardNumber) {
    const digits = details.cardNumber.replace(/\D/g, '');
    fields.push({ key: 'cardNumber', display: groupInFours(digits), copy: digits, mono: true });
  }
  if (details.bankName)
    fields.push({ key: 'bankName', display: details.bankName, copy: null, mono: false });
  if (details.cardName)
    fields.push({ key: 'cardName', display: details.cardName, copy: null, mono: false });
  if (details.phoneNumber) {
    fields.push({
      key: 'phoneNumber',
      display: details.phoneNumber,
      copy: details.phoneNumber.replace(/[^\d+]/g, ''),
      mono: true,
    });
  }
  if (details.accountNumber) {
    fields.push({
      key: 'accountNumber',
      display: details.accountNumber,
      copy: details.accountNumber.replace(/\s+/g, ''),
      mono: true,
    });
  }
  if (details.ibanNumber) {
    const compact = details.ibanNumber.replace(/\s+/g, '').toUpperCase();
    fields.push({ key: 'ibanNumber', display: groupInFours(compact), copy: compact, mono: true });
  }
  return fields;
}

/** Two overlapping sheets; decorative, the button's aria-label names the action. */
const COPY_ICON = trustedHtml(
  '<svg class="icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><rect x="9" y="9" width="11" height="11" rx="2"/><path d="M5 15V6a2 2 0 0 1 2-2h9"/></svg>',
);

function renderDetails(details: ReceivingDetails, m: PageMessages): SafeHtml {
  const rows = detailFields(details).map((field) => {
    const label = m.fields[field.key];
    const valueId = `value-${field.key}`;
    // Copy buttons need the script; they stay hidden until it runs and unhides them.
    const button = field.copy
      ? html`<button
          type="button"
          class="copy"
          data-copy="${field.copy}"
          aria-label="${m.copyLabel(label)}"
          hidden
        >
          ${COPY_ICON}<span class="copy-text">${m.copy}</span>
        </button>`
      : null;
    return html`<div class="field field-${field.key}">
      <dt>${label}</dt>
      <dd>
        <span class="value${field.mono ? ' mono' : ''}" id="${valueId}">${field.display}</span
        >${button}
      </dd>
    </div>`;
  });
  const qr = details.qrImage
    ? html`<figure class="qr">
        <div class="qr-image" role="img" aria-label="${m.qrLabel}">${details.qrImage}</div>
        <figcaption>
          ${m.qrHint}${details.qrLink ? html` <a href="${details.qrLink}" rel="noopener noreferrer">${m.qrLink}</a>` : null}
        </figcaption>
      </figure>`
    : null;
  return html`<section class="card details" id="details" aria-labelledby="details-title">
    <h2 id="details-title">${m.detailsHeading}</h2>
    <p class="hint">${m.detailsIntro}</p>
    <dl class="fields">${rows}</dl>
    ${qr}
    <p class="copy-status" id="copy-status" aria-live="polite"></p>
  </section>`;
}

function renderActions(view: PaymentPageView, m: PageMessages): SafeHtml {
  const accept = Object.keys(ALLOWED_DOCUMENT_TYPES).join(',');
  return html`<section class="card actions" id="actions" aria-labelledby="actions-title">
    <h2 id="actions-title">${m.actionsHeading}</h2>
    <form
      class="paid-form"
      id="paid-form"
      method="post"
      action="${view.id}/paid"
      ${view.state.canConfirm ? null : html` hidden`}
    >
      <button type="submit" class="button primary" aria-describedby="paid-hint">
        ${m.paidButton}
      </button>
      <p class="hint" id="paid-hint">${m.paidHint}</p>
    </form>
    <form
      class="proof-form"
      id="proof-form"
      method="post"
      action="${view.id}/proof"
      enctype="multipart/form-data"
      ${view.state.canUpload ? null : html` hidden`}
    >
      <label for="document">${m.receiptLabel}</label>
      <p class="hint" id="document-hint">${m.receiptHint}</p>
      <input
        type="file"
        id="document"
        name="document"
        accept="${accept}"
        required
        aria-describedby="document-hint"
      />
      <button type="submit" class="button secondary">${m.uploadButton}</button>
    </form>
  </section>`;
}

function formatCountdown(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const mm = String(Math.floor((seconds % 3600) / 60)).padStart(2, '0');
  const ss = String(seconds % 60).padStart(2, '0');
  return h > 0 ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}

export function renderPaymentPage(view: PaymentPageView, assets: PageAssets): string {
  const m = messagesFor(view.language);
  const { state } = view;
  const amount = formatAmount(view.amount, view.language);
  const statusText = m.statuses[state.status];
  const showDetails = !state.final && view.details !== null;
  // No whitespace inside the notice when empty: the stylesheet hides it with :empty.
  const noticeText = view.notice ? m.notices[view.notice] : '';
  const noticeClass = !view.notice
    ? 'notice'
    : OK_NOTICES.has(view.notice)
      ? 'notice is-ok'
      : 'notice is-error';

  const body = html`<main
      class="page${state.final ? ' is-final' : ''}"
      id="payment"
      data-status-url="${view.id}/status"
      data-final="${state.final ? 'true' : 'false'}"
      data-seconds-left="${state.secondsLeft ?? ''}"
      data-redirect-url="${state.redirectUrl ?? ''}"
      data-poll-ms="${POLL_INTERVAL_MS}"
      data-redirect-ms="${REDIRECT_DELAY_MS}"
      data-msg-copied="${m.copied}"
      data-msg-copy-failed="${m.copyFailed}"
      data-msg-sending="${m.sending}"
      data-msg-network-error="${m.networkError}"
      data-msg-file-missing="${m.notices.file_missing}"
      data-msg-file-too-large="${m.notices.file_too_large}"
      data-msg-file-type="${m.notices.file_type}"
      data-msg-conflict="${m.notices.conflict}"
      data-msg-error="${m.notices.error}"
      data-msg-redirecting="${m.redirecting}"
      data-msg-return-link="${m.returnLink}"
    >
      <section class="card summary" aria-labelledby="amount-heading">
        <h1 id="amount-heading">
          <span class="eyebrow">${m.amountLabel}</span>
          <span class="amount"
            ><span class="amount-value">${amount}</span>
            <span class="amount-currency">${view.currency}</span></span
          >
        </h1>
        ${view.description ? html`<p class="purpose"><span class="purpose-label">${m.forLabel}:</span> ${view.description}</p>` : null}
        ${view.isTest ? html`<p class="badge">${m.testBadge}</p>` : null}
        <div class="status status-${state.status}" id="status" role="status" aria-atomic="true">
          <h2 class="status-title" id="status-title">${statusText.title}</h2>
          <p class="status-text" id="status-text">${statusText.text}</p>
        </div>
        ${
          state.secondsLeft !== null && showDetails
            ? html`<p class="timer" id="timer-row">
                <span id="timer-label">${m.timeLeft}</span>
                <span class="timer-value" id="timer" role="timer" aria-labelledby="timer-label"
                  >${formatCountdown(state.secondsLeft)}</span
                >
              </p>`
            : null
        }
        <p class="${noticeClass}" id="notice" aria-live="polite">${noticeText}</p>
        ${
          state.final && state.redirectUrl
            ? html`<p class="redirect" id="redirect">
                ${m.redirecting}
                <a href="${state.redirectUrl}" id="redirect-link" rel="noreferrer"
                  >${m.returnLink}</a
                >
              </p>`
            : null
        }
      </section>
      ${showDetails ? renderDetails(view.details!, m) : null}
      ${showDetails ? renderActions(view, m) : null}
      <footer class="footer">
        ${view.messengerUrl ? html`<p><a class="messenger" href="${view.messengerUrl}" rel="noopener noreferrer">${m.messenger}</a></p>` : null}
        <p class="payment-id">${m.paymentId}: <span class="mono">${view.id}</span></p>
      </footer>
    </main>
    <noscript><p class="noscript">${m.noScript}</p></noscript>`;

  return layout(view.language, `${m.pageTitle}: ${amount} ${view.currency}`, assets, body);
}

/** Unknown ids and anything that is not a payin: a page, not a JSON error, since a person opened it. */
export function renderNotFoundPage(language: PageLanguage, assets: PageAssets): string {
  const m = messagesFor(language);
  return layout(
    language,
    m.notFoundTitle,
    assets,
    html`<main class="page is-final" id="payment">
      <section class="card summary">
        <h1>${m.notFoundTitle}</h1>
        <p>${m.notFoundText}</p>
      </section>
    </main>`,
  );
}

export function renderErrorPage(language: PageLanguage, assets: PageAssets): string {
  const m = messagesFor(language);
  return layout(
    language,
    m.errorTitle,
    assets,
    html`<main class="page is-final" id="payment">
      <section class="card summary">
        <h1>${m.errorTitle}</h1>
        <p>${m.errorText}</p>
      </section>
    </main>`,
  );
}
