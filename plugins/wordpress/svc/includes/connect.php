<?php
/**
 * Connect (OAuth authorization code with PKCE S256), the secret-key path and Disconnect.
 * Every action: `manage_options`, a nonce, and for Connect a `state` bound to the admin's
 * login session.
 *
 * @package svc
 */

defined( 'ABSPATH' ) || exit;

const SVC_STATE_TTL = 600;

/** A digest of the admin's current login session, so a state cannot be replayed from another session. */
function svc_session_binding(): string {
	return hash_hmac( 'sha256', get_current_user_id() . '|' . wp_get_session_token(), wp_salt( 'nonce' ) );
}

/** Back to the settings page with a notice code. */
function svc_back( string $notice ): void {
	wp_safe_redirect( add_query_arg( 'svc_notice', $notice, svc_redirect_uri() ) );
	exit;
}

function svc_require_admin_action( string $action ): void {
	if ( ! current_user_can( 'manage_options' ) ) {
		wp_die( esc_html__( 'You are not allowed to change the svc connection.', 'svc' ), 403 );
	}
	check_admin_referer( $action );
}

/** The authorize URL: the portal signs the firm in, shows what is asked and returns a code. */
function svc_authorize_url( string $state, string $challenge ): string {
	return svc_portal_url() . '/oauth/authorize?' . http_build_query(
		array(
			'response_type'         => 'code',
			'client_id'             => 'svc for WordPress',
			'redirect_uri'          => svc_redirect_uri(),
			'state'                 => $state,
			'code_challenge'        => $challenge,
			'code_challenge_method' => 'S256',
			'site_domain'           => svc_current_site_domain(),
			'scope'                 => SVC_CONNECT_SCOPE,
		),
		'',
		'&',
		PHP_QUERY_RFC3986
	);
}

add_action(
	'admin_post_svc_connect',
	function () {
		svc_require_admin_action( 'svc_connect' );
		if ( ! svc_can_connect( svc_redirect_uri() ) ) {
			svc_back( 'needs_https' );
		}
		$state    = svc_base64url( random_bytes( 24 ) );
		$verifier = svc_pkce_verifier();
		set_transient(
			'svc_state_' . hash( 'sha256', $state ),
			array(
				'binding'  => svc_session_binding(),
				'verifier' => $verifier,
			),
			SVC_STATE_TTL
		);
		// The portal is the configured service, not this site: wp_safe_redirect would refuse it.
		wp_redirect( svc_authorize_url( $state, svc_pkce_challenge( $verifier ) ) ); // phpcs:ignore WordPress.Security.SafeRedirect.wp_redirect_wp_redirect
		exit;
	}
);

/**
 * The return from the portal (`?page=svc&code=…&state=…`), handled before the page renders.
 * The state is single use and must belong to this admin's session; the code is exchanged with
 * the PKCE verifier kept for it.
 */
function svc_handle_callback(): void {
	// phpcs:disable WordPress.Security.NonceVerification.Recommended -- the OAuth state is the CSRF check here.
	if ( ! isset( $_GET['state'] ) || ( ! isset( $_GET['code'] ) && ! isset( $_GET['error'] ) ) ) {
		return;
	}
	if ( ! current_user_can( 'manage_options' ) ) {
		wp_die( esc_html__( 'You are not allowed to change the svc connection.', 'svc' ), 403 );
	}
	$state = sanitize_text_field( wp_unslash( $_GET['state'] ) );
	$key   = 'svc_state_' . hash( 'sha256', $state );
	$saved = get_transient( $key );
	delete_transient( $key );
	if ( ! is_array( $saved ) || ! hash_equals( (string) $saved['binding'], svc_session_binding() ) ) {
		svc_back( 'bad_state' );
	}
	if ( isset( $_GET['error'] ) ) {
		svc_back( 'denied' );
	}
	$code = sanitize_text_field( wp_unslash( $_GET['code'] ) );
	// phpcs:enable
	$set = svc_api(
		'POST',
		'/v1/api/licenses/exchange',
		array(
			'json' => array(
				'code'         => $code,
				'siteDomain'   => svc_current_site_domain(),
				'codeVerifier' => (string) $saved['verifier'],
				'redirectUri'  => svc_redirect_uri(),
			),
		)
	);
	if ( is_wp_error( $set ) ) {
		svc_back( 'exchange_failed' );
	}
	svc_save_token_set( $set, 'connect' );
	svc_fetch_status();
	svc_back( 'connected' );
}

add_action(
	'admin_post_svc_activate',
	function () {
		svc_require_admin_action( 'svc_activate' );
		// The key is used once and never stored: the tokens it buys are what the site keeps.
		$license_key = isset( $_POST['svc_license_key'] ) ? trim( sanitize_text_field( wp_unslash( $_POST['svc_license_key'] ) ) ) : '';
		if ( '' === $license_key ) {
			svc_back( 'key_missing' );
		}
		$set = svc_api(
			'POST',
			'/v1/api/licenses/activate',
			array(
				'json' => array(
					'licenseKey' => $license_key,
					'siteDomain' => svc_current_site_domain(),
				),
			)
		);
		unset( $license_key );
		if ( is_wp_error( $set ) ) {
			$data = $set->get_error_data();
			$code = is_array( $data ) ? (string) ( $data['code'] ?? '' ) : '';
			svc_back( 'WRONG_KEY_KIND' === $code ? 'key_publishable' : 'key_refused' );
		}
		svc_save_token_set( $set, 'key' );
		svc_fetch_status();
		svc_back( 'activated' );
	}
);

add_action(
	'admin_post_svc_disconnect',
	function () {
		svc_require_admin_action( 'svc_disconnect' );
		svc_back( svc_disconnect() ? 'disconnected' : 'disconnected_offline' );
	}
);
