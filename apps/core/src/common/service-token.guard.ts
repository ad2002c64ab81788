import { CanActivate, ExecutionContext, HttpStatus, Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { AppConfig, APP_CONFIG } from '@app/config';
import { AppException, ErrorCode } from '@app/errors';
import { tokensMatch } from './token-compare';

/** The core API's caller is the merchant API: `Authorization: Bearer <CORE_SERVICE_TOKEN>`. */
@Injectable()
export class ServiceTokenGuard implements CanActivate {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const header = context.switchToHttp().getRequest<Request>().headers.authorization;
    const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!match || !tokensMatch(match[1], this.config.secrets.coreServiceToken)) {
      throw new AppException(ErrorCode.SERVICE_TOKEN_INVALID, HttpStatus.UNAUTHORIZED);
    }
    return true;
  }
}
