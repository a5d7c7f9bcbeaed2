<?php
use PHPUnit\Framework\TestCase;

/** The plugin's WordPress glue, against a real WordPress. No rollback between tests: each cleans up. */
final class GlueTest extends TestCase {
	protected function tearDown(): void {
		delete_option( 'svc_tokens' );
		delete_option( 'svc_publishable_key' );
		delete_option( 'svc_reconnect' );
		wp_dequeue_script( 'svc-loader' );
		wp_deregister_script( 'svc-loader' );
		wp_set_current_user( 0 );
	}

	public function test_the_plugin_is_active_and_registers_its_shortcode_and_block(): void {
		require_once ABSPATH . 'wp-admin/includes/plugin.php';
		$this->assertTrue( is_plugin_active( 'svc/svc.php' ) );
		$this->assertTrue( shortcode_exists( 'svc_calculator' ) );
		$this->assertTrue( WP_Block_Type_Registry::get_instance()->is_registered( 'svc/calculator' ) );
	}

	public function test_the_shortcode_prints_a_placeholder_and_the_loader_once_async_with_the_learned_key(): void {
		update_option( 'svc_publishable_key', 'svc_pk_integration' );
		$html = do_shortcode( '[svc_calculator calculator="estate-tax" state="NY" theme="auto"][svc_calculator calculator="rmd" theme="dark" accent="#1F4E79"]' );
		$this->assertStringContainsString( 'data-svc-calculator="estate-tax" data-svc-state="NY"', $html );
		$this->assertStringContainsString( 'data-svc-calculator="rmd" data-svc-theme="dark" data-svc-accent="#1f4e79"', $html );
		ob_start();
		wp_print_footer_scripts();
		$footer = (string) ob_get_clean();
		$this->assertSame( 1, substr_count( $footer, '/loader.js' ) );
		$this->assertMatchesRegularExpression( '#<script async src="[^"]+/loader\.js" data-key="svc_pk_integration"#', $footer );
	}

	public function test_hostile_attributes_are_cleaned_and_escaped(): void {
		update_option( 'svc_publishable_key', 'svc_pk_integration' );
		$html = do_shortcode( '[svc_calculator calculator="<script>" state="\"><b>" accent="red\" onload=\"x"]' );
		$this->assertSame( '<div class="svc-calculator" data-svc-calculator="estate-tax"></div>', $html );
	}

	public function test_without_a_key_visitors_see_nothing_and_editors_a_note(): void {
		$this->assertSame( '', do_shortcode( '[svc_calculator]' ) );
		wp_set_current_user( 1 );
		$this->assertStringContainsString( 'svc-missing', do_shortcode( '[svc_calculator]' ) );
	}

	public function test_tokens_never_autoload_and_the_refresh_token_is_stored_sealed(): void {
		global $wpdb;
		svc_save_token_set(
			array( 'accessJwt' => 'a.b.c', 'refreshToken' => 'svc_rt_plaintext_must_not_be_stored', 'expiresIn' => 900, 'scope' => 'site leads:read' ),
			'connect'
		);
		$row = $wpdb->get_row( $wpdb->prepare( "SELECT option_value, autoload FROM {$wpdb->options} WHERE option_name = %s", 'svc_tokens' ) );
		$this->assertSame( 'no', $row->autoload );
		$this->assertStringNotContainsString( 'svc_rt_plaintext_must_not_be_stored', $row->option_value );
		$this->assertSame( 'svc_rt_plaintext_must_not_be_stored', svc_load_tokens()['refresh'] );
		$this->assertSame( 'a.b.c', svc_access_token(), 'a fresh token is used as is, without a call' );
	}

	public function test_the_access_token_is_stored_sealed_and_still_used_without_a_call(): void {
		global $wpdb;
		svc_save_token_set(
			array( 'accessJwt' => 'eyJhbGciOi.eyJzdWIi.access_plaintext_must_not_be_stored', 'refreshToken' => 'svc_rt_q', 'expiresIn' => 900 ),
			'connect'
		);
		$raw = (string) $wpdb->get_var( $wpdb->prepare( "SELECT option_value FROM {$wpdb->options} WHERE option_name = %s", 'svc_tokens' ) );
		$this->assertStringNotContainsString( 'access_plaintext_must_not_be_stored', $raw );
		$this->assertSame( 'eyJhbGciOi.eyJzdWIi.access_plaintext_must_not_be_stored', svc_access_token() );
	}

	public function test_an_access_token_an_older_version_stored_in_clear_is_not_used(): void {
		svc_put_option(
			'svc_tokens',
			array( 'access' => 'clear.jwt.legacy', 'issued_at' => time(), 'expires_at' => time() + 900, 'refresh_sealed' => svc_seal( 'svc_rt_legacy', svc_token_key() ), 'scope' => 'site', 'via' => 'connect' )
		);
		$tokens = svc_load_tokens();
		$this->assertSame( 'svc_rt_legacy', $tokens['refresh'], 'still connected' );
		$this->assertArrayNotHasKey( 'access', $tokens );
		$this->assertSame( 'refresh', svc_refresh_decision( $tokens, time() ) );
	}

	public function test_a_token_sealed_under_other_salts_reads_as_not_connected(): void {
		svc_put_option( 'svc_tokens', svc_token_record( array( 'accessJwt' => 'x', 'refreshToken' => 'svc_rt_y', 'expiresIn' => 900 ), 'connect', svc_derive_key( 'another site' ), time() ) );
		$this->assertFalse( svc_is_connected() );
	}

	public function test_the_leads_widget_is_only_for_manage_options(): void {
		require_once ABSPATH . 'wp-admin/includes/admin.php';
		require_once ABSPATH . 'wp-admin/includes/dashboard.php';
		svc_save_token_set( array( 'accessJwt' => 'a', 'refreshToken' => 'svc_rt_z', 'expiresIn' => 900 ), 'connect' );
		$editor = wp_insert_user( array( 'user_login' => 'editor_' . wp_rand(), 'user_pass' => wp_generate_password(), 'role' => 'editor' ) );
		try {
			foreach ( array( $editor => false, 1 => true ) as $user => $sees ) {
				global $wp_meta_boxes;
				$wp_meta_boxes = array();
				wp_set_current_user( $user );
				set_current_screen( 'dashboard' );
				do_action( 'wp_dashboard_setup' );
				$this->assertSame( $sees, isset( $wp_meta_boxes['dashboard']['normal']['core']['svc_latest_leads'] ) );
			}
		} finally {
			require_once ABSPATH . 'wp-admin/includes/user.php';
			wp_delete_user( $editor );
		}
	}

	public function test_connect_refuses_without_the_capability(): void {
		$subscriber = wp_insert_user( array( 'user_login' => 'sub_' . wp_rand(), 'user_pass' => wp_generate_password(), 'role' => 'subscriber' ) );
		wp_set_current_user( $subscriber );
		$this->assertFalse( current_user_can( 'manage_options' ) );
		add_filter( 'wp_die_handler', fn() => function ( $message, $title, $args ) {
			throw new RuntimeException( 'died ' . ( $args['response'] ?? '' ) );
		} );
		try {
			svc_require_admin_action( 'svc_connect' );
			$this->fail( 'a subscriber passed' );
		} catch ( RuntimeException $e ) {
			$this->assertSame( 'died 403', $e->getMessage() );
		} finally {
			require_once ABSPATH . 'wp-admin/includes/user.php';
			wp_delete_user( $subscriber );
		}
	}
}
