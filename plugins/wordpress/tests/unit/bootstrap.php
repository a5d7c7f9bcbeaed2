<?php
// Pure functions only: no WordPress. ABSPATH is defined so the files' direct-access guard passes.
define( 'ABSPATH', __DIR__ . '/' );
require_once __DIR__ . '/../../svc/includes/pure.php';
