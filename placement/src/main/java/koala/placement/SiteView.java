package koala.placement;

/**
 * One site as placement sees it at one moment.
 *
 * @param totalNodes nodes the site has in all (what it could ever hold)
 * @param idleNodes  nodes neither KOALA nor the site's local users occupy, less those KOALA is
 *                   claiming right now
 */
public record SiteView(String site, int totalNodes, int idleNodes) {
}
