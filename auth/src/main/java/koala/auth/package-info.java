/**
 * Who is calling KOALA, for callers the kernel cannot name: signed, expiring tokens the scheduler
 * issues ({@link koala.auth.Tokens}) under a key only KOALA reads ({@link koala.auth.TokenKey}).
 * A local user needs none: over the scheduler's Unix socket the kernel says who they are.
 */
package koala.auth;
