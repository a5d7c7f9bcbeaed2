<?php
/**
 * The one door to the service: every call goes to `svc_api_url()` and nowhere else.
 *
 * @package svc
 */

defined( 'ABSPATH' ) || exit;

/**
 * Calls the API. Answers the decoded JSON, or a WP_Error whose data carries the HTTP status and
 * the service's error code (`{ "error": { "code", "message", "status" } }`).
 *
 * @param array{json?: array, bearer?: string, query?: array} $args
 * @return array|WP_Error
 */
function svc_api( string $method, string $path, array $args = array() ) {
	$url = svc_api_url() . $path;
	if ( ! empty( $args['query'] ) ) {
		$url = add_query_arg( array_map( 'rawurlencode', $args['query'] ), $url );
	}
	$headers = array( 'Accept' => 'application/json' );
	if ( isset( $args['bearer'] ) ) {
		$headers['Authorization'] = 'Bearer ' . $args['bearer'];
	}
	$request = array(
		'method'      => $method,
		'timeout'     => 10,
		'redirection' => 0,
		'headers'     => $headers,
		'user-agent'  => 'svc-wordpress/' . SVC_PLUGIN_VERSION,
	);
	if ( isset( $args['json'] ) ) {
		$request['headers']['Content-Type'] = 'application/json';
		$request['body']                    = wp_json_encode( $args['json'] );
	}
	$response = wp_remote_request( $url, $request );
	if ( is_wp_error( $response ) ) {
		return new WP_Error( 'svc_network', __( 'The svc service could not be reached. Try again in a minute.', 'svc' ), array( 'status' => 0 ) );
	}
	$status = (int) wp_remote_retrieve_response_code( $response );
	$body   = json_decode( (string) wp_remote_retrieve_body( $response ), true );
	if ( $status >= 400 || ! is_array( $body ) ) {
		$error = is_array( $body ) && isset( $body['error'] ) && is_array( $body['error'] ) ? $body['error'] : array();
		return new WP_Error(
			'svc_api',
			isset( $error['message'] ) ? (string) $error['message'] : __( 'The svc service answered with an error.', 'svc' ),
			array(
				'status' => $status,
				'code'   => isset( $error['code'] ) ? (string) $error['code'] : '',
			)
		);
	}
	return $body;
}

/** The HTTP status of an API error (0 for the network). */
function svc_error_status( WP_Error $error ): int {
	$data = $error->get_error_data();
	return is_array( $data ) && isset( $data['status'] ) ? (int) $data['status'] : 0;
}
