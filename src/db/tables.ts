/**
 * Every table, as kysely sees it: each area declares its own beside its repository, and this joins them into the
 * one `Database` type the connection is typed with. Times are epoch milliseconds in `bigint` columns.
 */
import type { ClaimTables } from '../disputes/claim-tables.ts';
import type { EndpointTables } from '../notifications/endpoint-tables.ts';
import type { OutboxTables } from '../notifications/outbox-tables.ts';
import type { OrderTables } from '../orders/order-tables.ts';
import type { PaymentTables } from '../payments/payment-tables.ts';
import type { PlatformTables } from '../risk/risk-tables.ts';
import type { SiteTables } from '../sites/site-tables.ts';

export interface Database extends OrderTables, SiteTables, OutboxTables, PaymentTables, PlatformTables, ClaimTables, EndpointTables {}
