<?php
/**
 * Deleting the plugin: revoke the site's tokens at the service (the seat is freed) and remove
 * every option the plugin wrote.
 *
 * @package svc
 */

defined( 'WP_UNINSTALL_PLUGIN' ) || exit;

require_once __DIR__ . '/includes/pure.php';
require_once __DIR__ . '/includes/config.php';
if ( ! defined( 'SVC_PLUGIN_VERSION' ) ) {
	define( 'SVC_PLUGIN_VERSION', 'uninstall' );
}
require_once __DIR__ . '/includes/api.php';
require_once __DIR__ . '/includes/tokens.php';

svc_disconnect();
foreach ( array( 'svc_tokens', 'svc_publishable_key', 'svc_reconnect' ) as $svc_option ) {
	delete_option( $svc_option );
}
// Connect attempts never finished (their one-time state and PKCE verifier).
global $wpdb;
$wpdb->query( "DELETE FROM {$wpdb->options} WHERE option_name LIKE '\\_transient\\_svc\\_state\\_%' OR option_name LIKE '\\_transient\\_timeout\\_svc\\_state\\_%'" ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery
