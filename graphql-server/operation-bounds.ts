/**
 * How many operations one multiplexed connection may run at once (docs/edge.md#bounds): a graphql-ws socket, or a
 * graphql-sse stream in its single connection mode (counted on each instance that runs its operations). Each
 * running subscription holds listeners, an iterator and its share of every event's fan-out for as long as the
 * client keeps it; rate limits count how often operations start, not how many stay open, so without a bound one
 * socket could pile up subscriptions for a whole event. The pages run one or two per socket; the bound is far above
 * any client's honest use, and the operation past it alone is refused, the connection and its others carry on.
 */
export const MAX_OPERATIONS_PER_CONNECTION = 100;

export const TOO_MANY_OPERATIONS_MESSAGE = `Too many operations at once on this connection: at most ${MAX_OPERATIONS_PER_CONNECTION}. End one before starting another.`;

export const TOO_MANY_OPERATIONS_CODE = 'TOO_MANY_OPERATIONS';
