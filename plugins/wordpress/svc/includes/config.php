<?php
/**
 * Where the service lives. A firm never types these: the defaults are the service's public
 * addresses; `SVC_API_URL`, `SVC_EMBED_URL` and `SVC_PORTAL_URL` in wp-config.php override them
 * (a self-hosted service, or the test suite's own server).
 *
 * @package svc
 */

defined( 'ABSPATH' ) || exit;

function svc_api_url(): string {
	return untrailingslashit( defined( 'SVC_API_URL' ) ? (string) SVC_API_URL : 'https://api.svc.example' );
}

function svc_embed_url(): string {
	return untrailingslashit( defined( 'SVC_EMBED_URL' ) ? (string) SVC_EMBED_URL : 'https://embed.svc.example' );
}

/** The portal (sign-in, consent, leads); the API's origin unless set apart. */
function svc_portal_url(): string {
	return untrailingslashit( defined( 'SVC_PORTAL_URL' ) ? (string) SVC_PORTAL_URL : svc_api_url() );
}

/** This site's domain as the service binds tokens to it. */
function svc_current_site_domain(): string {
	return svc_site_domain( home_url() );
}

/** Where Connect returns: the settings page itself (the same string at authorize and exchange). */
function svc_redirect_uri(): string {
	return admin_url( 'options-general.php?page=svc' );
}

/** Writes an option that never autoloads (tokens are read only when needed). */
function svc_put_option( string $name, $value ): void {
	if ( false === get_option( $name ) ) {
		add_option( $name, $value, '', 'no' );
	} else {
		update_option( $name, $value, false );
	}
}
