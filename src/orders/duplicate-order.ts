/**
 * A create refused because the email already holds an order (document 1 §2 Error.duplicate), carrying what every
 * door answers with it.
 */
import { DomainError } from '../kernel/errors.ts';
import type { Order } from './order.ts';
import type { OrderView } from './order-view.ts';

/**
 * The existing order behind a `duplicate`, with a fresh payToken while it is still held, and then also its view
 * (document 1 §2 Error.duplicate: the hold fields come along), so no door has to call back for it.
 */
export class DuplicateOrderError extends DomainError {
  constructor(readonly existing: Order, readonly payToken: string | undefined, readonly heldView?: OrderView) {
    super('duplicate', 'An order already exists for this email. Only one order per email is allowed.', {
      orderNumber: existing.orderNumber,
    });
  }
}
