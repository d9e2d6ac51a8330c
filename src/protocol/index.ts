// The wire, as zod schemas (the source of truth for protocol/*.schema.json), plus the payload
// builder and serializer.

export {
  EVENT_PAYLOAD_SCHEMAS,
  EventNameSchema,
  JsonObjectSchema,
  OtherWirePayloadSchema,
  PartialWirePayloadSchema,
  ToolWirePayloadSchema,
  WIRE_PAYLOAD_KEYS,
  WirePayloadSchema,
  type PartialWirePayload,
  type WirePayload,
} from './payload.js';
export { buildPayload, type PayloadContext } from './build-payload.js';
export { readPayload, type PayloadReading, type ReadPayloadOptions } from './read-payload.js';
export { serializePayload, toWireJson, CIRCULAR_MARKER, TOO_DEEP_MARKER, UNREADABLE_MARKER } from './serialize.js';
export {
  ClaudeHookSpecificOutputSchema,
  ClaudeOutputSchema,
  HermesApproveOutputSchema,
  HermesBlockOutputSchema,
  HermesContextOutputSchema,
  HermesContinueOutputSchema,
  HermesDecisionBlockOutputSchema,
  HermesDecisionModifyOutputSchema,
  HermesHandledOutputSchema,
  HermesModifyOutputSchema,
  HermesNotifyOutputSchema,
  HermesOutputSchema,
  HookOutputSchema,
  type HookOutput,
} from './hook-output.js';
export { DirectiveSchema } from './directive.js';
export { DecisionActionSchema, DecisionSchema, ReportDecisionSchema } from './decision.js';
export {
  DiagnosticReportSchema,
  HookReportSchema,
  HookReportStatusSchema,
  ProductionReportSchema,
  TestReportSchema,
  type HookReport,
  type ProductionReport,
  type TestReport,
} from './test-report.js';
export { PUBLISHED_SCHEMAS, SCHEMA_BASE_URL, toPublishedJsonSchema, type PublishedSchema } from './published.js';
