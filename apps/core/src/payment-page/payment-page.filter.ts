import { ArgumentsHost, Catch, ExceptionFilter, Injectable, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ErrorCode, GlobalExceptionFilter, mapException, unexpectedErrorFields } from '@app/errors';
import { PaymentPageAssets } from './payment-page.assets';
import { pickLanguageFromHeader, type NoticeKey } from './payment-page.i18n';
import { renderErrorPage, renderNotFoundPage } from './payment-page.view';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The page's script asks for JSON; a browser without script navigates and wants HTML. */
export function wantsHtml(req: Request): boolean {
  return req.accepts(['json', 'html']) === 'html';
}

/** Refusals a payer can act on, as the notice shown back on the page. */
export function noticeForError(code: string | undefined): NoticeKey {
  switch (code) {
    case ErrorCode.INVALID_DOCUMENT_TYPE:
      return 'file_type';
    case ErrorCode.FILE_TOO_LARGE:
      return 'file_too_large';
    case ErrorCode.INVALID_REQUEST:
      return 'file_missing';
    case ErrorCode.TRANSACTION_STATUS_CONFLICT:
      return 'conflict';
    default:
      return 'error';
  }
}

/**
 * Errors of the payment page's routes. The script's JSON calls get the usual error body (the
 * global filter's mapping and logging). A person's browser gets pages instead: a 404 or error
 * page for a GET, and for a form posted without script a 303 back to the payment page with a
 * notice, so a refused receipt is explained in words, not in JSON.
 */
@Catch()
@Injectable()
export class PaymentPageExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('PaymentPage');
  private readonly json = new GlobalExceptionFilter();

  constructor(private readonly assets: PaymentPageAssets) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const req = host.switchToHttp().getRequest<Request>();
    const res = host.switchToHttp().getResponse<Response>();
    if (!wantsHtml(req) || res.headersSent) {
      this.json.catch(exception, host);
      return;
    }

    const mapped = mapException(exception);
    if (mapped.unexpected) {
      this.logger.error(unexpectedErrorFields(req, exception), 'payment page error');
    }
    const language = pickLanguageFromHeader(req.get('accept-language'));
    const id = typeof req.params?.id === 'string' ? req.params.id : '';
    const notFound = mapped.status === 404;

    if (req.method === 'POST' && UUID.test(id) && !notFound) {
      // Relative to /pay/<id>/<action>: lands on /pay/<id> under any path prefix.
      res.redirect(
        303,
        `../${encodeURIComponent(id)}?notice=${noticeForError(mapped.body.message)}`,
      );
      return;
    }
    res
      .status(notFound ? 404 : mapped.status >= 500 ? 500 : mapped.status)
      .type('html')
      .send(
        notFound
          ? renderNotFoundPage(language, this.assets.paths())
          : renderErrorPage(language, this.assets.paths()),
      );
  }
}
