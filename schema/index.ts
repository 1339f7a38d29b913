/** Imports every type family and every root field, then builds the schema. Exports nothing else. */
import './scalars.ts';
import './types/order.ts';
import './errors.ts';
import './types/live.ts';
import './types/staff.ts';
import './types/pickup.ts';
import './types/payments.ts';
import './types/platform.ts';
import './types/notifications.ts';
import './types/webhooks.ts';
import './types/nodes.ts';
import './fields/orders.ts';
import './fields/staff.ts';
import './fields/pickup.ts';
import './fields/subscriptions.ts';
import './fields/payments.ts';
import './fields/platform.ts';
import './fields/notifications.ts';
import './fields/webhooks.ts';
import './fields/nodes.ts';
import { lexicographicSortSchema } from 'graphql';
import { builder } from './builder.ts';

export const schema = lexicographicSortSchema(builder.toSchema());
