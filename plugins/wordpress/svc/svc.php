<?php
/**
 * Plugin Name:       svc calculators
 * Description:       Estate-tax and probate calculators that turn visitors into leads: connect once, add the block, see leads in your dashboard.
 * Version:           0.1.0
 * Requires at least: 6.1
 * Requires PHP:      8.1
 * Author:            svc
 * License:           GPL-2.0-or-later
 * License URI:       https://www.gnu.org/licenses/gpl-2.0.html
 * Text Domain:       svc
 * Domain Path:       /languages
 *
 * @package svc
 */

defined( 'ABSPATH' ) || exit;

const SVC_PLUGIN_VERSION = '0.1.0';
define( 'SVC_PLUGIN_DIR', plugin_dir_path( __FILE__ ) );

require_once SVC_PLUGIN_DIR . 'includes/pure.php';
require_once SVC_PLUGIN_DIR . 'includes/config.php';
require_once SVC_PLUGIN_DIR . 'includes/api.php';
require_once SVC_PLUGIN_DIR . 'includes/tokens.php';
require_once SVC_PLUGIN_DIR . 'includes/connect.php';
require_once SVC_PLUGIN_DIR . 'includes/settings-page.php';
require_once SVC_PLUGIN_DIR . 'includes/embed.php';
require_once SVC_PLUGIN_DIR . 'includes/dashboard.php';

add_action(
	'init',
	function () {
		load_plugin_textdomain( 'svc', false, dirname( plugin_basename( __FILE__ ) ) . '/languages' );
	}
);

add_filter(
	'plugin_action_links_' . plugin_basename( __FILE__ ),
	function ( $links ) {
		array_unshift( $links, '<a href="' . esc_url( svc_redirect_uri() ) . '">' . esc_html__( 'Settings', 'svc' ) . '</a>' );
		return $links;
	}
);
