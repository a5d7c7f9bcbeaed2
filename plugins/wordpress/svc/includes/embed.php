<?php
/**
 * The block, the shortcode and the loader: one `<script async>` per page, with the publishable
 * key the plugin learned from the service.
 *
 * @package svc
 */

defined( 'ABSPATH' ) || exit;

/** Queues the loader (WordPress prints a queued handle once, however many embeds the page has). */
function svc_enqueue_loader(): bool {
	$key = (string) get_option( SVC_KEY_OPTION, '' );
	if ( '' === $key ) {
		return false;
	}
	wp_enqueue_script( 'svc-loader', svc_embed_url() . '/loader.js', array(), null, true ); // phpcs:ignore WordPress.WP.EnqueuedResourceParameters.MissingVersion -- the embed host versions loader.js itself.
	return true;
}

/** `async` and `data-key` on the loader's tag (WordPress 6.1 has no loading strategies). */
add_filter(
	'script_loader_tag',
	function ( $tag, $handle, $src ) {
		if ( 'svc-loader' !== $handle ) {
			return $tag;
		}
		return sprintf(
			'<script async src="%1$s" data-key="%2$s" id="svc-loader-js"></script>' . "\n",
			esc_url( $src ),
			esc_attr( (string) get_option( SVC_KEY_OPTION, '' ) )
		);
	},
	10,
	3
);

/** The placeholder the loader mounts into. */
function svc_embed_markup( array $atts, string $wrapper_attributes = 'class="svc-calculator"' ): string {
	$a    = svc_embed_attributes( $atts );
	$html = '<div ' . $wrapper_attributes . ' data-svc-calculator="' . esc_attr( $a['calculator'] ) . '"';
	if ( '' !== $a['state'] ) {
		$html .= ' data-svc-state="' . esc_attr( $a['state'] ) . '"';
	}
	if ( 'auto' !== $a['theme'] ) {
		$html .= ' data-svc-theme="' . esc_attr( $a['theme'] ) . '"';
	}
	if ( '' !== $a['accent'] ) {
		$html .= ' data-svc-accent="' . esc_attr( $a['accent'] ) . '"';
	}
	return $html . '></div>';
}

/** One embed: the placeholder and the loader, or for editors a note saying what is missing. */
function svc_render_embed( array $atts, string $wrapper_attributes = 'class="svc-calculator"' ): string {
	if ( ! svc_enqueue_loader() ) {
		return current_user_can( 'edit_posts' )
			? '<p class="svc-missing">' . esc_html__( 'svc calculator: connect this site in Settings → svc to show it (only editors see this note).', 'svc' ) . '</p>'
			: '';
	}
	return svc_embed_markup( $atts, $wrapper_attributes );
}

add_shortcode(
	'svc_calculator',
	function ( $atts ) {
		$atts = shortcode_atts(
			array(
				'calculator' => 'estate-tax',
				'state'      => '',
				'theme'      => 'auto',
				'accent'     => '',
			),
			is_array( $atts ) ? $atts : array(),
			'svc_calculator'
		);
		return svc_render_embed( $atts );
	}
);

add_action(
	'init',
	function () {
		register_block_type( SVC_PLUGIN_DIR . 'blocks/calculator' );
		wp_set_script_translations( 'svc-calculator-editor-script', 'svc', SVC_PLUGIN_DIR . 'languages' );
	}
);

/** The editor's live preview mounts real widgets: the loader goes into the editor too. */
add_action(
	'enqueue_block_editor_assets',
	function () {
		if ( svc_enqueue_loader() ) {
			wp_add_inline_script( 'svc-calculator-editor-script', 'window.svcEditor = ' . wp_json_encode( array( 'connected' => true ) ) . ';', 'before' );
		}
	}
);
