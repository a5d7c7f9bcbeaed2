<?php
/**
 * The plugin's pure functions: no WordPress calls, so PHPUnit tests them without a site.
 *
 * @package svc
 */

defined( 'ABSPATH' ) || exit;

/** The calculators the service offers, slug => name (kept in step with calculators/names.ts). */
const SVC_CALCULATORS = array(
	'estate-tax'          => 'Estate tax',
	'inheritance-tax'     => 'Inheritance tax',
	'probate-fees'        => 'California probate fees',
	'executor-commission' => 'New York executor commission',
	'rmd'                 => 'Required minimum distribution',
);

const SVC_THEMES = array( 'auto', 'light', 'dark' );

/** Two-letter codes of the US states and DC, the only states a calculator knows. */
const SVC_STATES = array(
	'AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'DC', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS',
	'KY', 'LA', 'ME', 'MD', 'MA', 'MI', 'MN', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC',
	'ND', 'OH', 'OK', 'OR', 'PA', 'RI', 'SC', 'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA', 'WV', 'WI', 'WY',
);

/** The scope the plugin asks Connect for: license status and reading leads; never billing, never writes. */
const SVC_CONNECT_SCOPE = 'site leads:read';

function svc_base64url( string $bytes ): string {
	return rtrim( strtr( base64_encode( $bytes ), '+/', '-_' ), '=' );
}

/** A PKCE code verifier (RFC 7636 §4.1): 32 random bytes, 43 base64url characters. */
function svc_pkce_verifier(): string {
	return svc_base64url( random_bytes( 32 ) );
}

/** The S256 challenge of a verifier (RFC 7636 §4.2). */
function svc_pkce_challenge( string $verifier ): string {
	return svc_base64url( hash( 'sha256', $verifier, true ) );
}

/**
 * The key that seals the site's tokens, derived from the site's secret salts. A database dump
 * alone (without wp-config.php) reveals neither token; changing the salts makes the stored
 * tokens unreadable, and the plugin then asks to reconnect. The label still says "refresh token"
 * because changing it would make every stored refresh token unreadable.
 */
function svc_derive_key( string $salt_material ): string {
	return sodium_crypto_generichash( 'svc refresh token v1|' . $salt_material, '', SODIUM_CRYPTO_SECRETBOX_KEYBYTES );
}

/** Seals with XSalsa20-Poly1305 (libsodium secretbox); `v1.` + base64(nonce + box). */
function svc_seal( string $plain, string $key ): string {
	$nonce = random_bytes( SODIUM_CRYPTO_SECRETBOX_NONCEBYTES );
	return 'v1.' . base64_encode( $nonce . sodium_crypto_secretbox( $plain, $nonce, $key ) );
}

/** Opens what `svc_seal` sealed; null when the text was altered or the key is not the one that sealed it. */
function svc_open( string $sealed, string $key ): ?string {
	if ( ! str_starts_with( $sealed, 'v1.' ) ) {
		return null;
	}
	$raw = base64_decode( substr( $sealed, 3 ), true );
	if ( false === $raw || strlen( $raw ) <= SODIUM_CRYPTO_SECRETBOX_NONCEBYTES + SODIUM_CRYPTO_SECRETBOX_MACBYTES ) {
		return null;
	}
	$nonce = substr( $raw, 0, SODIUM_CRYPTO_SECRETBOX_NONCEBYTES );
	$plain = sodium_crypto_secretbox_open( substr( $raw, SODIUM_CRYPTO_SECRETBOX_NONCEBYTES ), $nonce, $key );
	return false === $plain ? null : $plain;
}

/**
 * What to do with the stored tokens at `$now`: 'none' (nothing stored), 'use' (the access token
 * is good), or 'refresh'. Refreshes a little before expiry (a quarter of the lifetime, at most a
 * minute) so a request never starts with a token that dies on the way.
 *
 * @param array{access?: string, issued_at?: int, expires_at?: int, refresh?: string} $tokens
 */
function svc_refresh_decision( array $tokens, int $now ): string {
	if ( empty( $tokens['refresh'] ) ) {
		return 'none';
	}
	if ( empty( $tokens['access'] ) || empty( $tokens['expires_at'] ) ) {
		return 'refresh';
	}
	$lifetime = max( 0, (int) $tokens['expires_at'] - (int) ( $tokens['issued_at'] ?? $tokens['expires_at'] ) );
	$margin   = min( 60, intdiv( $lifetime, 4 ) );
	return $now >= (int) $tokens['expires_at'] - $margin ? 'refresh' : 'use';
}

/**
 * The block's and the shortcode's attributes, cleaned: an unknown calculator becomes estate-tax,
 * an unknown theme auto, a state or accent that is not valid is dropped.
 *
 * @param array<string, mixed> $atts
 * @return array{calculator: string, state: string, theme: string, accent: string}
 */
function svc_embed_attributes( array $atts ): array {
	$calculator = strtolower( trim( (string) ( $atts['calculator'] ?? '' ) ) );
	$state      = strtoupper( trim( (string) ( $atts['state'] ?? '' ) ) );
	$theme      = strtolower( trim( (string) ( $atts['theme'] ?? '' ) ) );
	$accent     = strtolower( trim( (string) ( $atts['accent'] ?? '' ) ) );
	return array(
		'calculator' => isset( SVC_CALCULATORS[ $calculator ] ) ? $calculator : 'estate-tax',
		'state'      => in_array( $state, SVC_STATES, true ) ? $state : '',
		'theme'      => in_array( $theme, SVC_THEMES, true ) ? $theme : 'auto',
		'accent'     => preg_match( '/^#[0-9a-f]{6}$/', $accent ) ? $accent : '',
	);
}

/**
 * Whether a host is a development host as the service counts them (localhost, *.localhost,
 * *.test, loopback and private addresses): leads from there are test leads, and Connect may
 * return over plain HTTP only there.
 */
function svc_is_dev_host( string $host ): bool {
	$host = strtolower( trim( $host, "[] \t\n." ) );
	if ( 'localhost' === $host || str_ends_with( $host, '.localhost' ) || str_ends_with( $host, '.test' ) ) {
		return true;
	}
	if ( false === filter_var( $host, FILTER_VALIDATE_IP ) ) {
		return false;
	}
	if ( '::1' === $host || str_starts_with( $host, '127.' ) ) {
		return true;
	}
	return false === filter_var( $host, FILTER_VALIDATE_IP, FILTER_FLAG_NO_PRIV_RANGE | FILTER_FLAG_NO_RES_RANGE );
}

/**
 * Whether Connect can come back to this site: over HTTPS, or plain HTTP on a development host.
 * Otherwise the service refuses the redirect, and the plugin offers the secret-key path.
 */
function svc_can_connect( string $admin_url ): bool {
	$scheme = (string) parse_url( $admin_url, PHP_URL_SCHEME );
	$host   = (string) parse_url( $admin_url, PHP_URL_HOST );
	return 'https' === $scheme || ( 'http' === $scheme && svc_is_dev_host( $host ) );
}

/** The site domain the service binds tokens to: the host, lower-case, without port or `www.`. */
function svc_site_domain( string $home_url ): string {
	$host = strtolower( (string) parse_url( $home_url, PHP_URL_HOST ) );
	return str_starts_with( $host, 'www.' ) ? substr( $host, 4 ) : $host;
}

/**
 * Whether the license's allowed domains cover the site: an exact entry, or `*.example.com` for a
 * subdomain (never the apex). Development hosts need no entry.
 *
 * @param string[] $allowed
 */
function svc_domain_allowed( string $site, array $allowed ): bool {
	if ( svc_is_dev_host( $site ) ) {
		return true;
	}
	foreach ( $allowed as $entry ) {
		$entry = strtolower( (string) $entry );
		if ( $entry === $site ) {
			return true;
		}
		if ( str_starts_with( $entry, '*.' ) && str_ends_with( $site, substr( $entry, 1 ) ) ) {
			return true;
		}
	}
	return false;
}

/**
 * The token set the service answered, as the plugin keeps it: both tokens sealed, since the
 * 15-minute access token read from a database dump or backup would let its reader see the firm's
 * leads until it expires. One key serves both: swapping the two sealed texts gains nothing, as
 * each is only ever sent to svc.
 */
function svc_token_record( array $set, string $via, string $key, int $now ): array {
	return array(
		'access_sealed'  => svc_seal( (string) $set['accessJwt'], $key ),
		'issued_at'      => $now,
		'expires_at'     => $now + max( 0, (int) $set['expiresIn'] ),
		'refresh_sealed' => svc_seal( (string) $set['refreshToken'], $key ),
		'scope'          => (string) ( $set['scope'] ?? '' ),
		'via'            => $via,
	);
}

/**
 * A stored record with its tokens opened (`access`, `refresh`); an empty array when the refresh
 * token does not open (not connected). An access token that does not open, or one an older
 * version of the plugin kept in clear (`access`), is left out, so the caller refreshes: the
 * clear one may already sit in backups, it dies within 15 minutes anyway, and the refresh (under
 * the usual lock) writes the new record that replaces it, where rewriting it sealed here would
 * be a second writer racing the refresh.
 */
function svc_open_token_record( array $stored, string $key ): array {
	if ( empty( $stored['refresh_sealed'] ) ) {
		return array();
	}
	$refresh = svc_open( (string) $stored['refresh_sealed'], $key );
	if ( null === $refresh ) {
		return array();
	}
	$access = empty( $stored['access_sealed'] ) ? null : svc_open( (string) $stored['access_sealed'], $key );
	unset( $stored['access'], $stored['access_sealed'] );
	$stored['refresh'] = $refresh;
	if ( null !== $access ) {
		$stored['access'] = $access;
	}
	return $stored;
}
