import { Controller, Get, HttpStatus, Inject, Param, Query, Res } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { ApiOperation, ApiProduces, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { EntityManager } from 'typeorm';
import { AppConfig, APP_CONFIG } from '@app/config';
import { verifyFileUrl } from '@app/crypto';
import { Transaction } from '@app/database';
import { AppException, ErrorCode } from '@app/errors';
import { PROOF_KEY_PATTERN, PROOF_STORAGE, ProofStorage } from './proof-storage';

/**
 * Serves stored proofs through expiring signed links (`signFileUrl` of @app/crypto, keyed by
 * FILE_URL_KEY). Always as a download with the type decided at upload, never sniffed by the
 * browser, so a proof can never run as a page of this origin.
 */
@ApiTags('files')
@Controller('files')
export class FilesController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(PROOF_STORAGE) private readonly storage: ProofStorage,
    @InjectEntityManager() private readonly manager: EntityManager,
  ) {}

  @Get(':key')
  @ApiOperation({ summary: 'A proof file by its signed link; 403 invalid link, 410 expired link' })
  @ApiQuery({ name: 'expires', description: 'Unix seconds' })
  @ApiQuery({ name: 'sig', description: 'HMAC-SHA256 hex of the key and expiry' })
  @ApiProduces('application/octet-stream')
  async download(
    @Param('key') key: string,
    @Query('expires') expires: unknown,
    @Query('sig') sig: unknown,
    @Res() res: Response,
  ): Promise<void> {
    const check = verifyFileUrl(
      key,
      typeof expires === 'string' ? expires : undefined,
      typeof sig === 'string' ? sig : undefined,
      this.config.secrets.fileUrlKey,
    );
    if (check === 'invalid')
      throw new AppException(ErrorCode.FILE_URL_INVALID, HttpStatus.FORBIDDEN);
    if (check === 'expired') throw new AppException(ErrorCode.FILE_URL_EXPIRED, HttpStatus.GONE);
    if (!PROOF_KEY_PATTERN.test(key))
      throw new AppException(ErrorCode.FILE_NOT_FOUND, HttpStatus.NOT_FOUND);

    const owner = await this.manager.findOne(Transaction, {
      where: { proofFileKey: key },
      select: { id: true, proofMimeType: true, proofFileName: true },
    });
    const file = owner?.proofMimeType ? await this.storage.read(key) : null;
    if (!owner || !file) throw new AppException(ErrorCode.FILE_NOT_FOUND, HttpStatus.NOT_FOUND);

    res.setHeader('Content-Type', owner.proofMimeType!);
    res.setHeader('Content-Length', String(file.size));
    res.setHeader('Content-Disposition', contentDisposition(owner.proofFileName ?? key));
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Cache-Control', 'private, no-store');
    res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
    file.stream.on('error', () => res.destroy());
    file.stream.pipe(res);
  }
}

/** `attachment` with an ASCII fallback and the UTF-8 name (RFC 6266 / 5987). */
function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
