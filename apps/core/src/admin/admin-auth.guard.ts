import {
  CanActivate,
  createParamDecorator,
  ExecutionContext,
  HttpStatus,
  Inject,
  Injectable,
} from '@nestjs/common';
import type { Request } from 'express';
import { AppConfig, APP_CONFIG } from '@app/config';
import { AppException, ErrorCode } from '@app/errors';
import { tokensMatch } from '../common/token-compare';

/** Operator names go into the audit log and the status history: short, printable, no spaces. */
const ACTOR_PATTERN = /^[A-Za-z0-9._@:-]{1,64}$/;
export const DEFAULT_ADMIN_ACTOR = 'admin';

type AdminRequest = Request & { adminActor?: string };

/**
 * The admin API's bearer token (ADMIN_TOKEN), compared in constant time. The operator names
 * themselves with `x-admin-actor`; the guard validates it once so every handler and audit row
 * sees the same value.
 */
@Injectable()
export class AdminAuthGuard implements CanActivate {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<AdminRequest>();
    const header = request.headers.authorization;
    const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!match) throw new AppException(ErrorCode.ADMIN_TOKEN_REQUIRED, HttpStatus.UNAUTHORIZED);
    if (!tokensMatch(match[1], this.config.secrets.adminToken)) {
      throw new AppException(ErrorCode.ADMIN_TOKEN_INVALID, HttpStatus.UNAUTHORIZED);
    }

    const actorHeader = request.headers['x-admin-actor'];
    const actor =
      typeof actorHeader === 'string' && actorHeader.trim() !== ''
        ? actorHeader.trim()
        : DEFAULT_ADMIN_ACTOR;
    if (!ACTOR_PATTERN.test(actor)) {
      throw new AppException(ErrorCode.INVALID_REQUEST, HttpStatus.BAD_REQUEST, [
        {
          field: 'x-admin-actor',
          errors: ['must be 1 to 64 characters of letters, digits and . _ @ : -'],
        },
      ]);
    }
    request.adminActor = actor;
    return true;
  }
}

/** The operator's name as validated by AdminAuthGuard (`admin` when the header is absent). */
export const AdminActor = createParamDecorator(
  (_data: unknown, context: ExecutionContext): string => {
    const request = context.switchToHttp().getRequest<AdminRequest>();
    return request.adminActor ?? DEFAULT_ADMIN_ACTOR;
  },
);
