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
