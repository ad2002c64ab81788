export { ErrorCode } from './error-codes';
export { AppException, type ErrorBody } from './app.exception';
export {
  GlobalExceptionFilter,
  mapException,
  unexpectedErrorFields,
} from './global-exception.filter';
export { createValidationPipe, flattenValidationErrors, type FieldError } from './validation';
