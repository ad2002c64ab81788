import {
  Controller,
  Get,
  HttpStatus,
  Param,
  Post,
  Query,
  Req,
  Res,
  UseFilters,
  UseInterceptors,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { AppException, ErrorCode } from '@app/errors';
import { TransactionIdPipe } from '../common/params';
import { ProofUploadInterceptor } from '../proof/proof-upload.interceptor';
import { PaymentPageAssets } from './payment-page.assets';
import { PaymentPageExceptionFilter, wantsHtml } from './payment-page.filter';
import { NOTICE_KEYS, pickLanguageFromHeader, type NoticeKey } from './payment-page.i18n';
import { PaymentPageService } from './payment-page.service';
import type { PageStatusBody } from './payment-page.state';
import { renderNotFoundPage, renderPaymentPage } from './payment-page.view';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function noticeKey(value: unknown): NoticeKey | null {
  return typeof value === 'string' && (NOTICE_KEYS as readonly string[]).includes(value)
    ? (value as NoticeKey)
    : null;
}

/**
 * The hosted payment page at `paymentPage` = `<PUBLIC_BASE_URL>/pay/<transactionId>`, for the
 * payer: no authentication, the unguessable id is the link. Security headers come from
 * PaymentPageHeadersMiddleware on every route here.
 */
@ApiExcludeController()
@Controller('pay')
@UseFilters(PaymentPageExceptionFilter)
export class PaymentPageController {
  constructor(
    private readonly service: PaymentPageService,
    private readonly assets: PaymentPageAssets,
  ) {}

  @Get('assets/:file')
  asset(@Param('file') file: string, @Res() res: Response): void {
    const asset = this.assets.get(file);
    if (!asset) throw new AppException(ErrorCode.ROUTE_NOT_FOUND, HttpStatus.NOT_FOUND);
    // The URL carries the content hash, so the file may be cached; the page itself never is.
    res.setHeader('Cache-Control', 'public, max-age=86400');
    res.status(200).type(asset.contentType).send(asset.body);
  }

  @Get(':id')
  async page(
    @Param('id') id: string,
    @Query('notice') notice: unknown,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    if (req.path.endsWith('/')) {
      // `/pay/<id>/` would break the page's relative links; send the browser to the canonical URL.
      res.redirect(301, `../${encodeURIComponent(id)}`);
      return;
    }
    const view = UUID.test(id)
      ? await this.service.view(id.toLowerCase(), noticeKey(notice))
      : null;
    if (!view) {
      res
        .status(404)
        .type('html')
        .send(
          renderNotFoundPage(
            pickLanguageFromHeader(req.get('accept-language')),
            this.assets.paths(),
          ),
        );
      return;
    }
    res.status(200).type('html').send(renderPaymentPage(view, this.assets.paths()));
  }

  /** Polled by the page's script: the status, what the payer may do now, and where to go when final. */
  @Get(':id/status')
  async status(@Param('id', TransactionIdPipe) id: string): Promise<PageStatusBody> {
    const body = await this.service.status(id);
    if (!body) throw new AppException(ErrorCode.TRANSACTION_NOT_FOUND, HttpStatus.NOT_FOUND);
    return body;
  }

  /** "I have paid". The script gets the new status as JSON; a form posted without script gets the page again. */
  @Post(':id/paid')
  async paid(
    @Param('id', TransactionIdPipe) id: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const body = await this.service.reportPaid(id);
    this.answer(req, res, id, body, 'paid_reported');
  }

  /** The receipt: multipart, one file in `document`, at most 10 MB, typed by its content. */
  @Post(':id/proof')
  @UseInterceptors(ProofUploadInterceptor)
  async proof(
    @Param('id', TransactionIdPipe) id: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const file = req.file;
    if (!file) {
      throw new AppException(ErrorCode.INVALID_REQUEST, HttpStatus.BAD_REQUEST, [
        { field: 'document', errors: ['a file is required'] },
      ]);
    }
    const body = await this.service.uploadReceipt(id, file);
    this.answer(req, res, id, body, 'receipt_uploaded');
  }

  private answer(
    req: Request,
    res: Response,
    id: string,
    body: PageStatusBody,
    notice: NoticeKey,
  ): void {
    if (wantsHtml(req)) {
      // Post/redirect/get, relative to /pay/<id>/<action> so a path prefix survives.
      res.redirect(303, `../${encodeURIComponent(id)}?notice=${notice}`);
      return;
    }
    res.status(200).json(body);
  }
}
