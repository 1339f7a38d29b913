/** The async-iterator toolkit the live streams are built with (graphql-yoga's Repeater), kept behind src/events. */
export { Repeater } from 'graphql-yoga';
