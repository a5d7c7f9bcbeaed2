<?php
/**
 * Server-side render of the svc/calculator block.
 *
 * @package svc
 * @var array $attributes
 */

defined( 'ABSPATH' ) || exit;

echo svc_render_embed( $attributes, get_block_wrapper_attributes( array( 'class' => 'svc-calculator' ) ) ); // phpcs:ignore WordPress.Security.EscapeOutput.OutputNotEscaped -- built from escaped parts.
