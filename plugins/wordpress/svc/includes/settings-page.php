<?php
/**
 * Settings → svc: connect, the license status in words, the secret-key path, Disconnect.
 *
 * @package svc
 */

defined( 'ABSPATH' ) || exit;

add_action(
	'admin_menu',
	function () {
		$hook = add_options_page( __( 'svc calculators', 'svc' ), __( 'svc', 'svc' ), 'manage_options', 'svc', 'svc_render_settings_page' );
		add_action( 'load-' . $hook, 'svc_handle_callback' );
	}
);

/** The reconnect notice, on every admin screen, for those who can act on it. */
add_action(
	'admin_notices',
	function () {
		if ( ! current_user_can( 'manage_options' ) || 'revoked' !== get_option( SVC_RECONNECT_OPTION ) ) {
			return;
		}
		printf(
			'<div class="notice notice-error svc-reconnect"><p><strong>%1$s</strong> %2$s <a href="%3$s">%4$s</a></p></div>',
			esc_html__( 'svc is disconnected.', 'svc' ),
			esc_html__( 'The connection of this site was revoked in the svc portal (or has expired); calculators keep working, but the license status and your leads are not shown here until you reconnect.', 'svc' ),
			esc_url( svc_redirect_uri() ),
			esc_html__( 'Reconnect', 'svc' )
		);
	}
);

/** @return array{0: string, 1: string} type and text of a notice code, or empty strings. */
function svc_notice_text( string $code ): array {
	$notices = array(
		'connected'            => array( 'success', __( 'Connected. This site now shows the license status and your latest leads.', 'svc' ) ),
		'activated'            => array( 'success', __( 'License activated for this site. The key was used once and is not stored.', 'svc' ) ),
		'disconnected'         => array( 'success', __( 'Disconnected. The site’s seat is free again.', 'svc' ) ),
		'disconnected_offline' => array( 'warning', __( 'Disconnected here, but svc could not be reached to free the seat; it frees itself after 60 days unused.', 'svc' ) ),
		'denied'               => array( 'warning', __( 'The connection was not approved in the portal.', 'svc' ) ),
		'bad_state'            => array( 'error', __( 'That connection attempt expired or was started in another session. Press Connect again.', 'svc' ) ),
		'exchange_failed'      => array( 'error', __( 'svc did not accept the connection (the approval may have expired). Press Connect again.', 'svc' ) ),
		'needs_https'          => array( 'error', __( 'Connect needs this site on HTTPS. Use the secret license key below instead.', 'svc' ) ),
		'key_missing'          => array( 'error', __( 'Enter the secret license key.', 'svc' ) ),
		'key_publishable'      => array( 'error', __( 'That is the publishable key (svc_pk_…). Paste the secret key (SVC-…) from the portal’s license page.', 'svc' ) ),
		'key_refused'          => array( 'error', __( 'svc refused that key for this site: check the key and that the license allows this domain.', 'svc' ) ),
	);
	return $notices[ $code ] ?? array( '', '' );
}

function svc_render_settings_page(): void {
	if ( ! current_user_can( 'manage_options' ) ) {
		return;
	}
	// phpcs:ignore WordPress.Security.NonceVerification.Recommended -- only picks a message to show.
	$notice = isset( $_GET['svc_notice'] ) ? sanitize_key( wp_unslash( $_GET['svc_notice'] ) ) : '';
	list( $type, $text ) = svc_notice_text( $notice );
	echo '<div class="wrap svc-settings"><h1>' . esc_html__( 'svc calculators', 'svc' ) . '</h1>';
	if ( '' !== $text ) {
		printf( '<div class="notice notice-%1$s"><p>%2$s</p></div>', esc_attr( $type ), esc_html( $text ) );
	}
	if ( svc_is_connected() ) {
		svc_render_status();
	} else {
		svc_render_connect();
	}
	echo '</div>';
}

function svc_render_connect(): void {
	$can_connect = svc_can_connect( svc_redirect_uri() );
	echo '<p class="svc-lead">' . esc_html__( 'Show your svc calculators on this site and see the leads they bring in your dashboard. Connect once; no key to copy.', 'svc' ) . '</p>';
	echo '<div class="card svc-card"><h2>' . esc_html__( 'Connect to svc', 'svc' ) . '</h2>';
	if ( $can_connect ) {
		echo '<p>' . esc_html__( 'You sign in to the svc portal, see what this site asks for (your license status and reading your leads; never billing, never changes) and approve. Then you come back here.', 'svc' ) . '</p>';
		echo '<form method="post" action="' . esc_url( admin_url( 'admin-post.php' ) ) . '">';
		wp_nonce_field( 'svc_connect' );
		echo '<input type="hidden" name="action" value="svc_connect">';
		submit_button( __( 'Connect to svc', 'svc' ), 'primary', 'svc-connect', false );
		echo '</form>';
	} else {
		echo '<p>' . esc_html__( 'This site runs on plain HTTP. Connect sends you back to the site with a one-time code, and svc sends such codes only over HTTPS, so nobody on the network can pick it up. Use the secret license key below, or move the site to HTTPS and connect.', 'svc' ) . '</p>';
	}
	echo '</div>';
	$open = $can_connect ? '' : ' open';
	echo '<details class="svc-key-path"' . esc_attr( $open ) . '><summary>' . esc_html__( 'Use a secret license key instead', 'svc' ) . '</summary>';
	echo '<form method="post" action="' . esc_url( admin_url( 'admin-post.php' ) ) . '">';
	wp_nonce_field( 'svc_activate' );
	echo '<input type="hidden" name="action" value="svc_activate">';
	echo '<p><label for="svc-license-key">' . esc_html__( 'Secret license key (SVC-…)', 'svc' ) . '</label><br>';
	echo '<input type="password" id="svc-license-key" name="svc_license_key" class="regular-text" autocomplete="off" spellcheck="false"></p>';
	echo '<p class="description">' . esc_html__( 'Used once to activate this site, then forgotten. With a key the site shows calculators and the license status; your leads stay in the portal.', 'svc' ) . '</p>';
	submit_button( __( 'Activate', 'svc' ), 'secondary', 'svc-activate', false );
	echo '</form></details>';
}

function svc_render_status(): void {
	$status = svc_fetch_status();
	if ( is_wp_error( $status ) ) {
		if ( ! svc_is_connected() ) {
			svc_render_connect();
			return;
		}
		echo '<div class="notice notice-warning inline"><p>' . esc_html( $status->get_error_message() ) . '</p></div>';
		$status = array();
	}
	$site   = svc_current_site_domain();
	$tokens = svc_load_tokens();
	if ( $status ) {
		$domains = array_map( 'strval', (array) ( $status['allowedDomains'] ?? array() ) );
		if ( ! svc_domain_allowed( $site, $domains ) ) {
			/* translators: %s: this site's domain */
			echo '<div class="notice notice-error inline"><p>' . esc_html( sprintf( __( 'The license does not allow %s. Visitors will see no calculator until the domain is added to the license in the portal.', 'svc' ), $site ) ) . '</p></div>';
		}
		$expires = empty( $status['expiresAt'] ) ? __( 'No end date', 'svc' ) : wp_date( get_option( 'date_format' ), strtotime( (string) $status['expiresAt'] ) );
		$rows    = array(
			__( 'Status', 'svc' )          => ucfirst( (string) $status['status'] ),
			__( 'Plan', 'svc' )            => ucfirst( (string) $status['plan'] ),
			/* translators: 1: seats in use, 2: seats in the plan */
			__( 'Seats', 'svc' )           => sprintf( __( '%1$d of %2$d in use', 'svc' ), (int) $status['seatsUsed'], (int) $status['seats'] )
				. ( svc_is_dev_host( $site ) ? ' ' . __( '(this development site takes none)', 'svc' ) : '' ),
			__( 'Allowed domains', 'svc' ) => implode( ', ', $domains ),
			__( 'Expires', 'svc' )         => $expires,
			__( 'What happens next', 'svc' ) => (string) $status['next'],
		);
		echo '<div class="card svc-card"><h2>' . esc_html__( 'License', 'svc' ) . '</h2><table class="widefat striped svc-status"><tbody>';
		foreach ( $rows as $label => $value ) {
			echo '<tr><th scope="row">' . esc_html( $label ) . '</th><td>' . esc_html( $value ) . '</td></tr>';
		}
		echo '</tbody></table>';
		echo '<p><a class="button" href="' . esc_url( svc_portal_url() . '/portal/' ) . '" target="_blank" rel="noopener">' . esc_html__( 'Open the svc portal', 'svc' ) . '</a></p></div>';
	}
	$via = 'key' === ( $tokens['via'] ?? '' ) ? __( 'a secret license key', 'svc' ) : __( 'Connect', 'svc' );
	echo '<div class="card svc-card"><h2>' . esc_html__( 'This site', 'svc' ) . '</h2>';
	/* translators: 1: site domain, 2: how it was connected */
	echo '<p class="svc-connected">' . esc_html( sprintf( __( '%1$s is connected through %2$s.', 'svc' ), $site, $via ) ) . '</p>';
	echo '<p>' . esc_html__( 'Add a calculator with the “svc calculator” block, or the shortcode:', 'svc' ) . ' <code>[svc_calculator calculator="estate-tax" state="NY" theme="auto"]</code></p>';
	echo '<form method="post" action="' . esc_url( admin_url( 'admin-post.php' ) ) . '">';
	wp_nonce_field( 'svc_disconnect' );
	echo '<input type="hidden" name="action" value="svc_disconnect">';
	echo '<p class="description">' . esc_html__( 'Disconnect ends this site’s access and frees its seat. Calculators on the site stop loading.', 'svc' ) . '</p>';
	submit_button( __( 'Disconnect', 'svc' ), 'secondary', 'svc-disconnect', false );
	echo '</form></div>';
}
