/** Discrete-event simulator (filled in below). */
package koala.sim;
