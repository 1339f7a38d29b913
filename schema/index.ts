/** Imports every type family and every root field, then builds the schema. Exports nothing else. */
import './scalars.ts';
import './order.ts';
import './errors.ts';
import './live.ts';
import './staff.ts';
import './pickup.ts';
import './payments.ts';
import './platform.ts';
import './notifications.ts';
import '../resolvers/orders.ts';
import '../resolvers/staff.ts';
import '../resolvers/pickup.ts';
import '../resolvers/subscriptions.ts';
import '../resolvers/payments.ts';
import '../resolvers/platform.ts';
import '../resolvers/notifications.ts';
import { lexicographicSortSchema } from 'graphql';
import { builder } from './builder.ts';

export const schema = lexicographicSortSchema(builder.toSchema());
