<?php
/**
 * The site's tokens: kept in options that never autoload, both tokens sealed with a key derived
 * from the site's salts, refreshed before expiry under a lock.
 *
 * @package svc
 */

defined( 'ABSPATH' ) || exit;

const SVC_TOKENS_OPTION    = 'svc_tokens';
const SVC_KEY_OPTION       = 'svc_publishable_key';
const SVC_RECONNECT_OPTION = 'svc_reconnect';

function svc_token_key(): string {
	return svc_derive_key( wp_salt( 'auth' ) . '|' . wp_salt( 'secure_auth' ) );
}

/** The stored token record, read past the object cache (another request may have just rotated it). */
function svc_load_tokens(): array {
	wp_cache_delete( SVC_TOKENS_OPTION, 'options' );
	wp_cache_delete( 'notoptions', 'options' );
	$tokens = get_option( SVC_TOKENS_OPTION, array() );
	return is_array( $tokens ) ? svc_open_token_record( $tokens, svc_token_key() ) : array();
}

function svc_is_connected(): bool {
	return array() !== svc_load_tokens();
}

/** Keeps a token set the service answered; clears any reconnect notice. */
function svc_save_token_set( array $set, string $via ): void {
	svc_put_option( SVC_TOKENS_OPTION, svc_token_record( $set, $via, svc_token_key(), time() ) );
	delete_option( SVC_RECONNECT_OPTION );
}

/** Forgets the tokens; with a reason, the admin sees the reconnect notice. */
function svc_forget_tokens( string $reason = '' ): void {
	delete_option( SVC_TOKENS_OPTION );
	if ( '' !== $reason ) {
		svc_put_option( SVC_RECONNECT_OPTION, $reason );
	}
}

/**
 * A usable access token, refreshed first when it is about to expire; null when the site is not
 * connected (or has just learned that its connection was revoked).
 */
function svc_access_token( bool $force_refresh = false ): ?string {
	$tokens   = svc_load_tokens();
	$decision = svc_refresh_decision( $tokens, time() );
	if ( 'none' === $decision ) {
		return null;
	}
	if ( 'use' === $decision && ! $force_refresh ) {
		return (string) $tokens['access'];
	}
	return svc_refresh_locked( $force_refresh ? (string) ( $tokens['access'] ?? '' ) : '' );
}

/**
 * Rotates the refresh token while holding a database lock, so two PHP requests never present
 * the same refresh token one after the other (the second would look like a stolen token and end
 * the connection). A request that waited finds the tokens already rotated and uses them. If the
 * lock cannot be had, the service's retry window still answers a repeat with the same new pair.
 *
 * @param string $stale An access token the service refused: refresh even if it looks fresh.
 */
function svc_refresh_locked( string $stale = '' ): ?string {
	global $wpdb;
	$lock   = $wpdb->prefix . 'svc_refresh';
	$locked = '1' === (string) $wpdb->get_var( $wpdb->prepare( 'SELECT GET_LOCK(%s, %d)', $lock, 15 ) );
	try {
		$tokens   = svc_load_tokens();
		$decision = svc_refresh_decision( $tokens, time() );
		if ( 'none' === $decision ) {
			return null;
		}
		$refused_again = '' !== $stale && ( $tokens['access'] ?? '' ) === $stale;
		if ( 'use' === $decision && ! $refused_again ) {
			return (string) $tokens['access'];
		}
		$set = svc_api(
			'POST',
			'/v1/api/licenses/refresh',
			array(
				'json' => array(
					'refreshToken' => $tokens['refresh'],
					'siteDomain'   => svc_current_site_domain(),
				),
			)
		);
		if ( is_wp_error( $set ) ) {
			$status = svc_error_status( $set );
			if ( 400 === $status || 401 === $status ) {
				svc_forget_tokens( 'revoked' );
			}
			return null;
		}
		svc_save_token_set( $set, (string) ( $tokens['via'] ?? 'connect' ) );
		return (string) $set['accessJwt'];
	} finally {
		if ( $locked ) {
			$wpdb->query( $wpdb->prepare( 'SELECT RELEASE_LOCK(%s)', $lock ) );
		}
	}
}

/**
 * An API call with the site's access token. A 401 means the token died early (revoked, or the
 * license changed): one forced refresh tells a revoked connection (reconnect notice) from an
 * expired token (the call is repeated).
 *
 * @return array|WP_Error
 */
function svc_api_authed( string $method, string $path, array $args = array() ) {
	$token = svc_access_token();
	if ( null === $token ) {
		return new WP_Error( 'svc_not_connected', __( 'This site is not connected to svc.', 'svc' ), array( 'status' => 401 ) );
	}
	$answer = svc_api( $method, $path, $args + array( 'bearer' => $token ) );
	if ( is_wp_error( $answer ) && 401 === svc_error_status( $answer ) ) {
		$token = svc_access_token( true );
		if ( null === $token ) {
			return new WP_Error( 'svc_not_connected', __( 'The connection to svc has ended. Reconnect to continue.', 'svc' ), array( 'status' => 401 ) );
		}
		$answer = svc_api( $method, $path, array( 'bearer' => $token ) + $args );
	}
	return $answer;
}

/** The license status, live; remembers the publishable key it carries (public, needed on every page). */
function svc_fetch_status() {
	$status = svc_api_authed( 'GET', '/v1/api/licenses/status' );
	if ( is_array( $status ) && ! empty( $status['publishableKey'] ) && get_option( SVC_KEY_OPTION ) !== $status['publishableKey'] ) {
		update_option( SVC_KEY_OPTION, (string) $status['publishableKey'], true );
	}
	return $status;
}

/** Revokes the site's tokens at the service (which frees the seat) and forgets them here. */
function svc_disconnect(): bool {
	$tokens = svc_load_tokens();
	$ok     = true;
	if ( ! empty( $tokens['refresh'] ) ) {
		$answer = svc_api( 'POST', '/v1/api/licenses/revoke', array( 'json' => array( 'token' => $tokens['refresh'] ) ) );
		$ok     = ! is_wp_error( $answer );
	}
	svc_forget_tokens();
	delete_option( SVC_RECONNECT_OPTION );
	delete_option( SVC_KEY_OPTION );
	return $ok;
}
