<?php
/**
 * The "Latest leads" dashboard widget: fetched live from the service on every view, never stored
 * in WordPress, so a lead deleted in svc disappears here too. Only for `manage_options`.
 *
 * @package svc
 */

defined( 'ABSPATH' ) || exit;

add_action(
	'wp_dashboard_setup',
	function () {
		if ( ! current_user_can( 'manage_options' ) || ! svc_is_connected() ) {
			return;
		}
		wp_add_dashboard_widget( 'svc_latest_leads', __( 'svc: latest leads', 'svc' ), 'svc_render_leads_widget' );
	}
);

function svc_render_leads_widget(): void {
	if ( ! current_user_can( 'manage_options' ) ) {
		return;
	}
	$dev   = svc_is_dev_host( svc_current_site_domain() );
	$query = array( 'limit' => '5' );
	if ( $dev ) {
		// On a development host every lead is a test lead: show them, labelled.
		$query['includeTest'] = 'true';
	}
	$page = svc_api_authed( 'GET', '/v1/api/leads', array( 'query' => $query ) );
	if ( is_wp_error( $page ) ) {
		$status = svc_error_status( $page );
		$text   = 403 === $status
			? __( 'This connection cannot read leads (a secret-key activation, or a development address on a private network). See them in the svc portal.', 'svc' )
			: $page->get_error_message();
		echo '<p class="svc-leads-error">' . esc_html( $text ) . '</p>';
		svc_portal_link();
		return;
	}
	$leads = is_array( $page['data'] ?? null ) ? $page['data'] : array();
	if ( array() === $leads ) {
		echo '<p class="svc-leads-empty">' . esc_html__( 'No leads yet. Add an svc calculator to a page; leads arrive here as visitors ask to be contacted.', 'svc' ) . '</p>';
		svc_portal_link();
		return;
	}
	if ( $dev ) {
		echo '<p class="description">' . esc_html__( 'This site runs on a development address, so its leads are test leads: they stay out of your pipeline.', 'svc' ) . '</p>';
	}
	echo '<ul class="svc-leads">';
	foreach ( $leads as $lead ) {
		$name       = (string) ( $lead['name'] ?? '' );
		$calculator = (string) ( $lead['calculator'] ?? '' );
		$label      = SVC_CALCULATORS[ $calculator ] ?? $calculator;
		$when       = wp_date( get_option( 'date_format' ) . ' ' . get_option( 'time_format' ), strtotime( (string) ( $lead['createdAt'] ?? '' ) ) );
		$url        = svc_portal_url() . '/portal/leads/' . rawurlencode( (string) ( $lead['leadId'] ?? '' ) );
		echo '<li class="svc-lead"><a href="' . esc_url( $url ) . '" target="_blank" rel="noopener">' . esc_html( $name ) . '</a>';
		if ( ! empty( $lead['test'] ) ) {
			echo ' <span class="svc-test-badge">' . esc_html__( 'Test', 'svc' ) . '</span>';
		}
		echo '<br><span class="description">' . esc_html( $label . ' · ' . $when ) . '</span></li>';
	}
	echo '</ul>';
	svc_portal_link();
}

function svc_portal_link(): void {
	echo '<p><a href="' . esc_url( svc_portal_url() . '/portal/leads' ) . '" target="_blank" rel="noopener">' . esc_html__( 'All leads in the svc portal', 'svc' ) . '</a></p>';
}

add_action(
	'admin_head-index.php',
	function () {
		echo '<style>.svc-leads{margin:0}.svc-lead{padding:8px 0;border-bottom:1px solid #f0f0f1}.svc-test-badge{display:inline-block;padding:0 6px;border-radius:3px;background:#fcf0c3;color:#614a00;font-size:11px;line-height:18px}</style>';
	}
);
