/** GraphQL types of its area; STUB until its issue fills it. */
export {};
