<?php
// The integration suite runs inside the real WordPress the e2e harness installed (WP_ROOT).
// These globals must exist before wp-load.php, or WordPress's own globals (shortcodes among
// them) land in this function's scope and silently go missing.
global $wpdb, $current_site, $current_blog, $wp_rewrite, $shortcode_tags, $wp, $phpmailer, $wp_theme_directories;
$svc_wp_root = getenv( 'WP_ROOT' );
if ( ! $svc_wp_root || ! file_exists( $svc_wp_root . '/wp-load.php' ) ) {
	fwrite( STDERR, "WP_ROOT must name a WordPress with the svc plugin active.\n" );
	exit( 1 );
}
$_SERVER['HTTP_HOST'] = (string) getenv( 'WP_HOST' );
require_once $svc_wp_root . '/wp-load.php';
