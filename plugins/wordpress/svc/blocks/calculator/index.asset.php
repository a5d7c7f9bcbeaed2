<?php
/**
 * Dependencies of index.js, written by hand: the plugin has no build step.
 *
 * @package svc
 */

return array(
	'dependencies' => array( 'wp-blocks', 'wp-block-editor', 'wp-components', 'wp-element', 'wp-i18n' ),
	'version'      => '0.1.0',
);
