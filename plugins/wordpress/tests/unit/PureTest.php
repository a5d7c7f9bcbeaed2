<?php
use PHPUnit\Framework\TestCase;

final class PureTest extends TestCase {
	public function test_pkce_challenge_matches_rfc7636_appendix_b(): void {
		$this->assertSame( 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', svc_pkce_challenge( 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk' ) );
	}

	public function test_pkce_verifier_is_43_unreserved_characters_and_fresh_each_time(): void {
		$a = svc_pkce_verifier();
		$this->assertMatchesRegularExpression( '/^[A-Za-z0-9_-]{43}$/', $a );
		$this->assertNotSame( $a, svc_pkce_verifier() );
	}

	public function test_sealed_refresh_token_opens_only_with_the_same_key_and_unaltered(): void {
		$key    = svc_derive_key( 'salts-of-site-a' );
		$sealed = svc_seal( 'svc_rt_secret', $key );
		$this->assertStringNotContainsString( 'svc_rt_secret', $sealed );
		$this->assertSame( 'svc_rt_secret', svc_open( $sealed, $key ) );
		$this->assertNull( svc_open( $sealed, svc_derive_key( 'salts-of-site-b' ) ) );
		$raw       = base64_decode( substr( $sealed, 3 ) );
		$raw[30]   = chr( ord( $raw[30] ) ^ 1 );
		$tampered  = 'v1.' . base64_encode( $raw );
		$this->assertNull( svc_open( $tampered, $key ) );
		$this->assertNull( svc_open( 'svc_rt_plain', $key ) );
		$this->assertNull( svc_open( 'v1.!!!', $key ) );
		$this->assertNotSame( $sealed, svc_seal( 'svc_rt_secret', $key ), 'a fresh nonce each time' );
	}

	public static function decisions(): array {
		$t = array( 'access' => 'jwt', 'refresh' => 'rt', 'issued_at' => 1000, 'expires_at' => 1900 );
		return array(
			'nothing stored'                 => array( array(), 1000, 'none' ),
			'no refresh token'               => array( array( 'access' => 'jwt' ), 1000, 'none' ),
			'fresh'                          => array( $t, 1000, 'use' ),
			'just before the 60 s margin'    => array( $t, 1839, 'use' ),
			'inside the margin'              => array( $t, 1840, 'refresh' ),
			'expired'                        => array( $t, 5000, 'refresh' ),
			'no access token'                => array( array( 'refresh' => 'rt' ), 1000, 'refresh' ),
			'short lifetime: quarter margin' => array( array( 'access' => 'a', 'refresh' => 'r', 'issued_at' => 0, 'expires_at' => 20 ), 14, 'use' ),
			'short lifetime: refresh at 15'  => array( array( 'access' => 'a', 'refresh' => 'r', 'issued_at' => 0, 'expires_at' => 20 ), 15, 'refresh' ),
		);
	}

	/** @dataProvider decisions */
	public function test_refresh_decision( array $tokens, int $now, string $expected ): void {
		$this->assertSame( $expected, svc_refresh_decision( $tokens, $now ) );
	}

	public static function attributes(): array {
		return array(
			'as given'              => array( array( 'calculator' => 'estate-tax', 'state' => 'NY', 'theme' => 'auto' ), array( 'estate-tax', 'NY', 'auto', '' ) ),
			'case folded'           => array( array( 'calculator' => 'RMD', 'state' => 'ca', 'theme' => 'Dark', 'accent' => '#1F4E79' ), array( 'rmd', 'CA', 'dark', '#1f4e79' ) ),
			'unknown calculator'    => array( array( 'calculator' => '../admin' ), array( 'estate-tax', '', 'auto', '' ) ),
			'bad state and theme'   => array( array( 'state' => 'XX', 'theme' => 'neon' ), array( 'estate-tax', '', 'auto', '' ) ),
			'accent injection'      => array( array( 'accent' => 'red" onload="x' ), array( 'estate-tax', '', 'auto', '' ) ),
			'short accent refused'  => array( array( 'accent' => '#fff' ), array( 'estate-tax', '', 'auto', '' ) ),
			'empty'                 => array( array(), array( 'estate-tax', '', 'auto', '' ) ),
		);
	}

	/** @dataProvider attributes */
	public function test_shortcode_attributes( array $atts, array $expected ): void {
		$this->assertSame( array_combine( array( 'calculator', 'state', 'theme', 'accent' ), $expected ), svc_embed_attributes( $atts ) );
	}

	public static function hosts(): array {
		return array(
			array( 'localhost', true ), array( 'wp.localhost', true ), array( '127.0.0.1', true ), array( '[::1]', true ),
			array( '192.168.1.5', true ), array( '10.0.0.1', true ), array( 'firm.test', true ),
			array( 'smithlaw.com', false ), array( '8.8.8.8', false ), array( 'localhost.example.com', false ),
		);
	}

	/** @dataProvider hosts */
	public function test_dev_hosts( string $host, bool $dev ): void {
		$this->assertSame( $dev, svc_is_dev_host( $host ) );
	}

	public function test_connect_needs_https_outside_development_hosts(): void {
		$this->assertTrue( svc_can_connect( 'https://smithlaw.com/wp-admin/options-general.php?page=svc' ) );
		$this->assertFalse( svc_can_connect( 'http://smithlaw.com/wp-admin/options-general.php?page=svc' ) );
		$this->assertTrue( svc_can_connect( 'http://127.0.0.1:8080/wp-admin/options-general.php?page=svc' ) );
	}

	public function test_site_domain_and_allowed_domains(): void {
		$this->assertSame( 'smithlaw.com', svc_site_domain( 'https://www.SmithLaw.com/blog' ) );
		$this->assertSame( '127.0.0.1', svc_site_domain( 'http://127.0.0.1:8123' ) );
		$this->assertTrue( svc_domain_allowed( 'smithlaw.com', array( 'smithlaw.com' ) ) );
		$this->assertTrue( svc_domain_allowed( 'blog.smithlaw.com', array( '*.smithlaw.com' ) ) );
		$this->assertFalse( svc_domain_allowed( 'smithlaw.com', array( '*.smithlaw.com' ) ) );
		$this->assertFalse( svc_domain_allowed( 'evilsmithlaw.com', array( '*.smithlaw.com' ) ) );
		$this->assertTrue( svc_domain_allowed( 'localhost', array() ) );
	}

	public function test_token_record_keeps_the_refresh_token_only_sealed(): void {
		$key    = svc_derive_key( 'k' );
		$record = svc_token_record( array( 'accessJwt' => 'a.b.c', 'refreshToken' => 'svc_rt_x', 'expiresIn' => 900, 'scope' => 'site leads:read' ), 'connect', $key, 100 );
		$this->assertSame( 1000, $record['expires_at'] );
		$this->assertStringNotContainsString( 'svc_rt_x', serialize( $record ) );
		$this->assertSame( 'svc_rt_x', svc_open( $record['refresh_sealed'], $key ) );
	}
	public function test_token_record_keeps_the_access_token_only_sealed_and_opens_both(): void {
		$key    = svc_derive_key( 'k' );
		$record = svc_token_record( array( 'accessJwt' => 'eyJhbGciOi.eyJzdWIi.access_sig', 'refreshToken' => 'svc_rt_x', 'expiresIn' => 900 ), 'connect', $key, 100 );
		$this->assertStringNotContainsString( 'access_sig', serialize( $record ) );
		$this->assertArrayNotHasKey( 'access', $record );
		$open = svc_open_token_record( $record, $key );
		$this->assertSame( 'eyJhbGciOi.eyJzdWIi.access_sig', $open['access'] );
		$this->assertSame( 'svc_rt_x', $open['refresh'] );
		$this->assertSame( 'use', svc_refresh_decision( $open, 100 ) );
	}

	public function test_an_access_token_stored_in_clear_by_an_older_version_is_dropped_so_it_is_refreshed(): void {
		$key    = svc_derive_key( 'k' );
		$legacy = array( 'access' => 'clear.jwt.old', 'issued_at' => 100, 'expires_at' => 1000, 'refresh_sealed' => svc_seal( 'svc_rt_x', $key ), 'scope' => 'site', 'via' => 'connect' );
		$open   = svc_open_token_record( $legacy, $key );
		$this->assertArrayNotHasKey( 'access', $open );
		$this->assertSame( 'svc_rt_x', $open['refresh'] );
		$this->assertSame( 'refresh', svc_refresh_decision( $open, 100 ) );
	}

	public function test_an_altered_sealed_access_token_is_refreshed_and_other_salts_open_nothing(): void {
		$key    = svc_derive_key( 'k' );
		$record = svc_token_record( array( 'accessJwt' => 'a.b.c', 'refreshToken' => 'svc_rt_x', 'expiresIn' => 900 ), 'connect', $key, 100 );
		$this->assertSame( array(), svc_open_token_record( $record, svc_derive_key( 'other' ) ) );
		$record['access_sealed'] = svc_seal( 'a.b.c', svc_derive_key( 'other' ) );
		$open                    = svc_open_token_record( $record, $key );
		$this->assertArrayNotHasKey( 'access', $open );
		$this->assertSame( 'refresh', svc_refresh_decision( $open, 100 ) );
	}
}
