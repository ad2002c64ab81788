import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { CallContext } from '@app/core-client';

/** The request's id (libs/observability's, echoed as `x-request-id`), forwarded to the core. */
export const RequestContext = createParamDecorator(
  (_data: unknown, context: ExecutionContext): CallContext => {
    const request = context.switchToHttp().getRequest<{ id?: unknown }>();
    return { requestId: typeof request.id === 'string' ? request.id : undefined };
  },
);

/**
 * The body exactly as the merchant sent it (parsed JSON or the form's text fields), untouched by
 * the validation pipe: what idempotency compares, as the signature covers it.
 */
export const RawBody = createParamDecorator(
  (_data: unknown, context: ExecutionContext): unknown => {
    return context.switchToHttp().getRequest<{ body?: unknown }>().body;
  },
);
