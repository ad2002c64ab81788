import type { PayinStatus } from '@app/database';

export const PAGE_LANGUAGES = ['en', 'ru'] as const;
export type PageLanguage = (typeof PAGE_LANGUAGES)[number];

/** Short notices the page shows after an action; the keys travel in `?notice=` for the no-script flow. */
export const NOTICE_KEYS = [
  'paid_reported',
  'receipt_uploaded',
  'file_missing',
  'file_too_large',
  'file_type',
  'conflict',
  'error',
] as const;
export type NoticeKey = (typeof NOTICE_KEYS)[number];

export interface StatusText {
  title: string;
  text: string;
}

export interface PageMessages {
  pageTitle: string;
  amountLabel: string;
  forLabel: string;
  testBadge: string;
  timeLeft: string;
  detailsHeading: string;
  detailsIntro: string;
  fields: {
    cardNumber: string;
    bankName: string;
    cardName: string;
    phoneNumber: string;
    accountNumber: string;
    ibanNumber: string;
  };
  copy: string;
  copyLabel: (field: string) => string;
  copied: string;
  copyFailed: string;
  qrHeading: string;
  qrLabel: string;
  qrHint: string;
  qrLink: string;
  actionsHeading: string;
  paidButton: string;
  paidHint: string;
  receiptLabel: string;
  receiptHint: string;
  uploadButton: string;
  sending: string;
  networkError: string;
  notices: Record<NoticeKey, string>;
  statuses: Record<PayinStatus, StatusText>;
  redirecting: string;
  returnLink: string;
  messenger: string;
  paymentId: string;
  noScript: string;
  notFoundTitle: string;
  notFoundText: string;
  errorTitle: string;
  errorText: string;
}

const en: PageMessages = {
  pageTitle: 'Payment',
  amountLabel: 'Amount to pay',
  forLabel: 'For',
  testBadge: 'Test payment: no real money moves',
  timeLeft: 'Time left to pay',
  detailsHeading: 'Where to send the money',
  detailsIntro: 'Transfer exactly the amount above, in one transfer, using these details.',
  fields: {
    cardNumber: 'Card number',
    bankName: 'Bank',
    cardName: 'Recipient',
    phoneNumber: 'Phone number',
    accountNumber: 'Account number',
    ibanNumber: 'IBAN',
  },
  copy: 'Copy',
  copyLabel: (field) => `Copy ${field.toLowerCase()}`,
  copied: 'Copied to the clipboard.',
  copyFailed: 'Could not copy. Select the text and copy it by hand.',
  qrHeading: 'QR code',
  qrLabel: 'QR code with the payment details',
  qrHint: 'Scan it with your banking app.',
  qrLink: 'Open in your banking app',
  actionsHeading: 'After the transfer',
  paidButton: 'I have paid',
  paidHint: 'Press it once the transfer has left your account.',
  receiptLabel: 'Receipt (photo, screenshot or PDF, up to 10 MB)',
  receiptHint: 'A receipt helps us confirm your payment faster.',
  uploadButton: 'Upload receipt',
  sending: 'Sending…',
  networkError: 'No connection to the server. Trying again…',
  notices: {
    paid_reported: 'Thank you! We are checking your payment.',
    receipt_uploaded: 'Receipt received. Thank you!',
    file_missing: 'Choose a file first.',
    file_too_large: 'The file is larger than 10 MB. Choose a smaller one.',
    file_type: 'This file type is not accepted. Upload a photo, a screenshot or a PDF.',
    conflict: 'This action is no longer available for this payment.',
    error: 'Something went wrong. Please try again.',
  },
  statuses: {
    pending: {
      title: 'Waiting for your payment',
      text: 'Transfer the amount, then press “I have paid”.',
    },
    processing: {
      title: 'We are checking your payment',
      text: 'This usually takes a few minutes. Keep this page open: it updates by itself.',
    },
    proof_requested: {
      title: 'Please upload your receipt',
      text: 'We could not confirm the transfer yet. Upload a photo or a screenshot of the receipt.',
    },
    success: { title: 'Payment received', text: 'Thank you! Your payment is confirmed.' },
    failed: {
      title: 'Payment not confirmed',
      text: 'If money left your account, contact the shop and quote the payment ID below.',
    },
    canceled: {
      title: 'Payment canceled',
      text: 'This payment was canceled. Do not send money for it.',
    },
    expired: {
      title: 'Time to pay has run out',
      text: 'Do not send money using the old details. Go back to the shop to start a new payment.',
    },
  },
  redirecting: 'Taking you back to the shop in a few seconds…',
  returnLink: 'Return to the shop',
  messenger: 'Follow this payment in the messenger',
  paymentId: 'Payment ID',
  noScript:
    'This page updates itself when JavaScript is on. Without it, reload the page to see the current status.',
  notFoundTitle: 'Payment not found',
  notFoundText: 'Check the link you received from the shop.',
  errorTitle: 'Something went wrong',
  errorText: 'Please reload the page in a moment.',
};

const ru: PageMessages = {
  pageTitle: 'Оплата',
  amountLabel: 'Сумма к оплате',
  forLabel: 'Назначение',
  testBadge: 'Тестовый платёж: реальные деньги не списываются',
  timeLeft: 'Осталось времени на оплату',
  detailsHeading: 'Куда перевести деньги',
  detailsIntro: 'Переведите ровно указанную сумму одним переводом по этим реквизитам.',
  fields: {
    cardNumber: 'Номер карты',
    bankName: 'Банк',
    cardName: 'Получатель',
    phoneNumber: 'Номер телефона',
    accountNumber: 'Номер счёта',
    ibanNumber: 'IBAN',
  },
  copy: 'Копировать',
  copyLabel: (field) => `Копировать: ${field.toLowerCase()}`,
  copied: 'Скопировано в буфер обмена.',
  copyFailed: 'Не удалось скопировать. Выделите текст и скопируйте вручную.',
  qrHeading: 'QR-код',
  qrLabel: 'QR-код с реквизитами платежа',
  qrHint: 'Отсканируйте его в приложении банка.',
  qrLink: 'Открыть в приложении банка',
  actionsHeading: 'После перевода',
  paidButton: 'Я оплатил',
  paidHint: 'Нажмите, когда перевод уйдёт с вашего счёта.',
  receiptLabel: 'Чек (фото, скриншот или PDF, до 10 МБ)',
  receiptHint: 'С чеком мы подтвердим оплату быстрее.',
  uploadButton: 'Отправить чек',
  sending: 'Отправляем…',
  networkError: 'Нет связи с сервером. Пробуем снова…',
  notices: {
    paid_reported: 'Спасибо! Проверяем вашу оплату.',
    receipt_uploaded: 'Чек получен. Спасибо!',
    file_missing: 'Сначала выберите файл.',
    file_too_large: 'Файл больше 10 МБ. Выберите файл поменьше.',
    file_type: 'Такой тип файла не принимается. Загрузите фото, скриншот или PDF.',
    conflict: 'Для этого платежа это действие уже недоступно.',
    error: 'Что-то пошло не так. Попробуйте ещё раз.',
  },
  statuses: {
    pending: { title: 'Ожидаем оплату', text: 'Переведите сумму, затем нажмите «Я оплатил».' },
    processing: {
      title: 'Проверяем оплату',
      text: 'Обычно это занимает несколько минут. Не закрывайте страницу: она обновится сама.',
    },
    proof_requested: {
      title: 'Загрузите, пожалуйста, чек',
      text: 'Мы пока не смогли подтвердить перевод. Загрузите фото или скриншот чека.',
    },
    success: { title: 'Оплата получена', text: 'Спасибо! Ваш платёж подтверждён.' },
    failed: {
      title: 'Платёж не подтверждён',
      text: 'Если деньги списались, свяжитесь с магазином и назовите номер платежа ниже.',
    },
    canceled: {
      title: 'Платёж отменён',
      text: 'Этот платёж отменён. Не переводите по нему деньги.',
    },
    expired: {
      title: 'Время на оплату истекло',
      text: 'Не переводите деньги по старым реквизитам. Вернитесь в магазин и начните новый платёж.',
    },
  },
  redirecting: 'Через несколько секунд вернём вас в магазин…',
  returnLink: 'Вернуться в магазин',
  messenger: 'Следить за платежом в мессенджере',
  paymentId: 'Номер платежа',
  noScript:
    'Страница обновляется сама, когда включён JavaScript. Без него обновите страницу, чтобы увидеть статус.',
  notFoundTitle: 'Платёж не найден',
  notFoundText: 'Проверьте ссылку, которую вы получили от магазина.',
  errorTitle: 'Что-то пошло не так',
  errorText: 'Обновите страницу чуть позже.',
};

const MESSAGES: Record<PageLanguage, PageMessages> = { en, ru };

export function messagesFor(language: PageLanguage): PageMessages {
  return MESSAGES[language];
}

/**
 * The payin's `language` is free text up to 16 characters (`ru`, `RU`, `ru-RU`, `ru_RU`): its
 * primary subtag decides, and anything unknown is English.
 */
export function pickLanguage(language: string | null | undefined): PageLanguage {
  const primary = (language ?? '').trim().toLowerCase().split(/[-_]/)[0];
  return (PAGE_LANGUAGES as readonly string[]).includes(primary) ? (primary as PageLanguage) : 'en';
}

/**
 * For pages that have no payin to ask (the 404 page): the first supported language of
 * `Accept-Language`, in the order the browser lists them (weights are ignored on purpose:
 * browsers send them in descending order anyway).
 */
export function pickLanguageFromHeader(acceptLanguage: string | undefined): PageLanguage {
  for (const part of (acceptLanguage ?? '').split(',')) {
    const tag = part.split(';')[0].trim().toLowerCase().split(/[-_]/)[0];
    if ((PAGE_LANGUAGES as readonly string[]).includes(tag)) return tag as PageLanguage;
  }
  return 'en';
}

/**
 * Formats a NUMERIC amount string (`"1500.5"`, `"1500.50"`) for display without passing it
 * through a float: the digits are regrouped as text. English `1,500.50`, Russian `1 500,50`
 * (narrow no-break space, as Russian typography groups thousands).
 */
export function formatAmount(amount: string, language: PageLanguage): string {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(amount.trim());
  if (!match) return amount;
  const [, sign, integer, fraction = ''] = match;
  const group = language === 'ru' ? '\u202f' : ',';
  const decimal = language === 'ru' ? ',' : '.';
  const grouped = integer.replace(/\B(?=(\d{3})+(?!\d))/g, group);
  const cents = (fraction + '00').slice(0, Math.max(2, fraction.replace(/0+$/, '').length));
  return `${sign}${grouped}${decimal}${cents}`;
}
