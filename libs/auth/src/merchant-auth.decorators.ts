import {
  applyDecorators,
  createParamDecorator,
  ExecutionContext,
  SetMetadata,
  UseGuards,
} from '@nestjs/common';
import type { AccessScope, AuthenticatedRequest, AuthenticatedStore } from './auth.types';
import { ACCESS_SCOPE } from './auth.tokens';
import { MerchantAuthGuard } from './merchant-auth.guard';

/**
 * Puts a controller or route behind the merchant guard: public token, signature over the
 * parameters as sent, replay fields, rate limit, then the named access flag.
 */
export function MerchantAuth(scope: AccessScope): ClassDecorator & MethodDecorator {
  return applyDecorators(SetMetadata(ACCESS_SCOPE, scope), UseGuards(MerchantAuthGuard));
}

/** The store the guard authenticated. Only on routes behind @MerchantAuth. */
export const CurrentStore = createParamDecorator(
  (_data: unknown, context: ExecutionContext): AuthenticatedStore => {
    const auth = context.switchToHttp().getRequest<AuthenticatedRequest>().merchantAuth;
    if (!auth) throw new Error('CurrentStore used on a route without @MerchantAuth');
    return auth;
  },
);
