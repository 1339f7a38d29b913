/** The event information served at /llms-full.txt until staff replace it (document 1 §4). */
import { holdPhrase } from './order-texts.ts';

export const EVENT_INFO_MAX_LENGTH = 100_000;

/** The default text states the configured hold (HOLD_SECONDS), as every other text does; staff's own text is theirs. */
export const defaultEventInfo = (holdSeconds: number): string => `# Open Stitch Summit 2026 — event information

This text is for people at the event and for the assistants that help them. It covers the agenda, speakers,
venue, food and swag. Custom embroidered laptop sleeves are ordered through the sleeve ordering service;
paid sleeves are collected at the order pickup station on the pickup day.

## Agenda

Day 1 — Tuesday
- 08:30  Doors open, registration and coffee (Atrium)
- 09:30  Opening keynote: "Interfaces that agents can trust" (Main Hall)
- 10:30  Track A: Designing APIs for humans and machines (Room 1)
- 10:30  Track B: Payments that never charge twice (Room 2)
- 12:00  Lunch (Atrium)
- 13:30  Workshop: Live subscriptions at the edge (Room 3, bring a laptop)
- 15:00  Panel: Fraud, risk and the 3DS maze (Main Hall)
- 16:30  Lightning talks (Main Hall)
- 18:00  Evening reception (Roof Terrace)

Day 2 — Wednesday (sleeve pickup day)
- 09:00  Keynote: "Webhooks that are never lost" (Main Hall)
- 10:30  Track A: Schema design in practice (Room 1)
- 10:30  Track B: Running SQLite and PostgreSQL in production (Room 2)
- 12:00  Lunch (Atrium)
- 13:00  Sleeve pickup station opens (Atrium, next to registration) — until 17:00
- 14:00  Hands-on clinic: bring your API questions (Room 3)
- 16:00  Closing remarks and prize draw (Main Hall)

## Speakers

- Amara Okafor — Principal engineer, payments platform; talks on idempotency and retries.
- Diego Fernández — Maintainer of an open-source GraphQL server; runs the subscriptions workshop.
- Mei Lin Zhou — Head of risk engineering; moderates the fraud and 3DS panel.
- Jonas Becker — Database engineer; speaks on SQLite and PostgreSQL in production.
- Priya Raman — Developer advocate; hosts the lightning talks and the API clinic.

## Venue

Harbor Light Conference Center, 200 Pier Street, Brooklyn, NY 11201.
- Registration, coffee, lunch and the sleeve pickup station are in the Atrium on the ground floor.
- Main Hall: ground floor. Rooms 1–3: second floor (elevators beside the Atrium).
- Wi-Fi: network "OpenStitch", password printed on your badge.
- Nearest subway: High St (A, C). Bike racks at the Pier Street entrance.
- Accessibility: step-free entrances, hearing loop in the Main Hall, quiet room on the second floor (Room 4).

## Food

- Breakfast pastries and coffee from 08:30 both days; lunch at 12:00 both days.
- Every meal has vegetarian, vegan and gluten-free choices, clearly labelled; tell registration about allergies.
- Water stations on every floor. Evening reception on Day 1 with drinks and light food (alcohol-free choices).

## Swag

- One custom embroidered laptop sleeve per attendee: choose size, font, thread colour and up to the current
  character limit of stitch text. Orders are held unpaid for ${holdPhrase(holdSeconds)}, then cancelled. Pay with the demo card
  (nothing is charged) or your own card or wallet ($1.00, refunded).
- Sleeves are collected at the pickup station on Day 2 from 13:00 to 17:00; give your first and last name.
- Stickers and a conference T-shirt at registration while stocks last.
`;
