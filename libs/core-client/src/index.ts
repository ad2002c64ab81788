export { CoreClientModule } from './core-client.module';
export { CoreClient, type CoreClientOptions } from './core-client.service';
export { parseCreateReply, parseStatusReply, transportFailure } from './core-client.transformers';
export type {
  CallContext,
  CoreCreateResult,
  CorePayinCreateRequest,
  CorePayoutCreateRequest,
  CoreReply,
  CoreStatusResult,
  ProofDocument,
} from './core-client.types';
