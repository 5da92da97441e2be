// The registry's first schema. Conventions: ids are TEXT (UUIDs, except credit ids which follow
// `<type>-<tokenId>-<tokenAddress>`); times are INTEGER milliseconds since the epoch (UTC), turned
// into ISO 8601 at the HTTP edge; amounts are INTEGER grams (see shared/registry/amounts.ts).
import type { Migration } from '@platform/db/migrate';

export const migration0001: Migration = {
  version: 1,
  name: 'initial',
  up(db) {
    db.exec(`
      CREATE TABLE settings (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
      ) STRICT;

      CREATE TABLE organizations (
        id                   TEXT PRIMARY KEY,
        full_name            TEXT NOT NULL,
        type                 TEXT NOT NULL,
        country_code         TEXT NOT NULL DEFAULT '',
        city                 TEXT NOT NULL DEFAULT '',
        zip                  TEXT NOT NULL DEFAULT '',
        physical_address     TEXT NOT NULL DEFAULT '',
        registration_number  TEXT NOT NULL DEFAULT '',
        website              TEXT NOT NULL DEFAULT '',
        logo                 TEXT NOT NULL DEFAULT '',
        industry_code        TEXT NOT NULL DEFAULT '',
        industry_name        TEXT NOT NULL DEFAULT '',
        is_public            INTEGER NOT NULL DEFAULT 1 CHECK (is_public IN (0, 1)),
        -- business verification (KYB) passed: gates public projects and claimed retirements
        is_verified          INTEGER NOT NULL DEFAULT 0 CHECK (is_verified IN (0, 1)),
        -- the registry operator's own organization (owner of the buffer/adjustment/organization accounts)
        is_registry          INTEGER NOT NULL DEFAULT 0 CHECK (is_registry IN (0, 1)),
        created_at           INTEGER NOT NULL,
        updated_at           INTEGER NOT NULL
      ) STRICT;
      CREATE UNIQUE INDEX organizations_one_registry ON organizations (is_registry) WHERE is_registry = 1;

      CREATE TABLE sectors (id TEXT PRIMARY KEY, title TEXT NOT NULL) STRICT;
      CREATE TABLE methodologies (id TEXT PRIMARY KEY, title TEXT NOT NULL) STRICT;
      CREATE TABLE project_types (id TEXT PRIMARY KEY, title TEXT NOT NULL, description TEXT NOT NULL) STRICT;

      CREATE TABLE projects (
        id                           TEXT PRIMARY KEY,
        num                          TEXT NOT NULL UNIQUE CHECK (num GLOB '[0-9]*' AND num NOT GLOB '*[^0-9]*'),
        full_name                    TEXT NOT NULL,
        description                  TEXT NOT NULL,
        short_description            TEXT NOT NULL,
        registry                     TEXT NOT NULL,
        status                       TEXT NOT NULL,
        start_date                   INTEGER NOT NULL,
        crediting_period_start_date  INTEGER NOT NULL,
        estimated_annual_mitigations TEXT NOT NULL DEFAULT '[]', -- JSON array of strings or nulls
        city                         TEXT,
        thumbnail                    TEXT,
        country_code                 TEXT,
        state                        TEXT,
        sector_id                    TEXT NOT NULL REFERENCES sectors (id),
        methodology_id               TEXT NOT NULL REFERENCES methodologies (id),
        type_id                      TEXT NOT NULL REFERENCES project_types (id),
        lat                          REAL,
        lng                          REAL,
        -- the proponent organization that owns the project and receives its issued credits
        organization_id              TEXT NOT NULL REFERENCES organizations (id),
        -- ERC-1155-style contract of the project's credits: lowercase 0x + 40 hex
        contract_address             TEXT NOT NULL UNIQUE CHECK (contract_address GLOB '0x[0-9a-f]*' AND length(contract_address) = 42),
        created_at                   INTEGER NOT NULL,
        updated_at                   INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX projects_by_status ON projects (status, num);
      CREATE INDEX projects_by_organization ON projects (organization_id);

      -- proponents and validators, in display order
      CREATE TABLE project_organizations (
        project_id      TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        organization_id TEXT NOT NULL REFERENCES organizations (id),
        role            TEXT NOT NULL CHECK (role IN ('proponent', 'validator')),
        position        INTEGER NOT NULL,
        PRIMARY KEY (project_id, role, organization_id)
      ) STRICT;

      CREATE TABLE project_documents (
        id         TEXT PRIMARY KEY,
        project_id TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        uri        TEXT NOT NULL,
        type       TEXT NOT NULL,
        name       TEXT NOT NULL,
        is_public  INTEGER NOT NULL CHECK (is_public IN (0, 1)),
        is_kml     INTEGER NOT NULL DEFAULT 0 CHECK (is_kml IN (0, 1)),
        position   INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX project_documents_by_project ON project_documents (project_id, position);
      CREATE UNIQUE INDEX project_documents_one_kml ON project_documents (project_id) WHERE is_kml = 1;

      CREATE TABLE project_benefits (
        project_id  TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        benefit_id  INTEGER NOT NULL,
        title       TEXT NOT NULL,
        checked     INTEGER NOT NULL CHECK (checked IN (0, 1)),
        description TEXT NOT NULL,
        position    INTEGER NOT NULL,
        PRIMARY KEY (project_id, benefit_id)
      ) STRICT;

      CREATE TABLE project_events (
        id                      TEXT PRIMARY KEY,
        project_id              TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        type                    TEXT NOT NULL,
        created_at              INTEGER NOT NULL,
        project_status          TEXT NOT NULL,
        previous_project_status TEXT NOT NULL
      ) STRICT;
      CREATE INDEX project_events_by_project ON project_events (project_id, created_at);

      -- One row per token: a project vintage of one type (ex-post or ex-ante).
      CREATE TABLE credits (
        id            TEXT PRIMARY KEY, -- <type>-<tokenId>-<tokenAddress>
        project_id    TEXT NOT NULL REFERENCES projects (id),
        token_address TEXT NOT NULL,
        token_id      INTEGER NOT NULL CHECK (token_id > 0),
        type          TEXT NOT NULL CHECK (type IN ('exPost', 'exAnte')),
        vintage       TEXT NOT NULL CHECK (length(vintage) = 4),
        serialization TEXT NOT NULL UNIQUE,
        created_at    INTEGER NOT NULL,
        UNIQUE (token_address, token_id),
        UNIQUE (project_id, vintage, type)
      ) STRICT;

      CREATE TABLE credit_events (
        id                      TEXT PRIMARY KEY,
        credit_id               TEXT NOT NULL REFERENCES credits (id),
        type                    TEXT NOT NULL,
        credit_type             TEXT NOT NULL,
        amount                  INTEGER NOT NULL CHECK (amount > 0),
        created_at              INTEGER NOT NULL,
        monitoring_period_start INTEGER NOT NULL,
        monitoring_period_end   INTEGER NOT NULL CHECK (monitoring_period_end >= monitoring_period_start),
        verification_body_id    TEXT NOT NULL REFERENCES organizations (id),
        movement_id             INTEGER REFERENCES movements (id)
      ) STRICT;
      CREATE INDEX credit_events_by_credit ON credit_events (credit_id, created_at);

      CREATE TABLE credit_event_files (
        id        TEXT PRIMARY KEY,
        event_id  TEXT NOT NULL REFERENCES credit_events (id) ON DELETE CASCADE,
        file_name TEXT NOT NULL,
        size      INTEGER NOT NULL CHECK (size >= 0),
        url       TEXT NOT NULL,
        type      TEXT NOT NULL,
        position  INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX credit_event_files_by_event ON credit_event_files (event_id, position);

      -- Accounts that hold credits. Organization inventories and warehouses, the registry's buffer,
      -- adjustment and organization accounts, and on-chain wallets (by address).
      CREATE TABLE accounts (
        id              TEXT PRIMARY KEY,
        kind            TEXT NOT NULL CHECK (kind IN ('inventory', 'warehouse', 'buffer', 'adjustment', 'registry', 'wallet')),
        organization_id TEXT REFERENCES organizations (id),
        wallet_address  TEXT UNIQUE,
        created_at      INTEGER NOT NULL,
        CHECK ((kind = 'wallet') = (wallet_address IS NOT NULL)),
        CHECK ((kind IN ('inventory', 'warehouse')) = (organization_id IS NOT NULL))
      ) STRICT;
      CREATE UNIQUE INDEX accounts_one_per_org ON accounts (organization_id, kind) WHERE organization_id IS NOT NULL;
      CREATE UNIQUE INDEX accounts_one_registry_kind ON accounts (kind) WHERE kind IN ('buffer', 'adjustment', 'registry');

      -- The append-only ledger. Every change of a holding is one row: issue (into an account),
      -- transfer/deposit/withdraw (between accounts), retire and cancel (out of an account).
      CREATE TABLE movements (
        id           INTEGER PRIMARY KEY AUTOINCREMENT,
        credit_id    TEXT NOT NULL REFERENCES credits (id),
        kind         TEXT NOT NULL CHECK (kind IN ('issue', 'transfer', 'deposit', 'withdraw', 'retire', 'cancel')),
        from_account TEXT REFERENCES accounts (id),
        to_account   TEXT REFERENCES accounts (id),
        amount       INTEGER NOT NULL CHECK (amount > 0),
        created_at   INTEGER NOT NULL,
        reference    TEXT, -- reservation, retirement or transaction id that caused it
        CHECK ((kind = 'issue') = (from_account IS NULL)),
        CHECK ((kind IN ('retire', 'cancel')) = (to_account IS NULL)),
        CHECK (from_account IS NOT to_account)
      ) STRICT;
      CREATE INDEX movements_by_credit ON movements (credit_id, kind);
      CREATE INDEX movements_by_from ON movements (from_account, credit_id);
      CREATE TRIGGER movements_append_only_update BEFORE UPDATE ON movements
        BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
      CREATE TRIGGER movements_append_only_delete BEFORE DELETE ON movements
        BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;

      -- Balances are derived from the ledger only, by these triggers, in the same transaction as the
      -- movement; a movement that would make a balance negative aborts the whole change.
      CREATE TABLE balances (
        account_id TEXT NOT NULL REFERENCES accounts (id),
        credit_id  TEXT NOT NULL REFERENCES credits (id),
        amount     INTEGER NOT NULL CHECK (amount >= 0),
        PRIMARY KEY (account_id, credit_id)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX balances_by_credit ON balances (credit_id);
      CREATE TRIGGER movements_credit_balance AFTER INSERT ON movements WHEN NEW.to_account IS NOT NULL
        BEGIN
          INSERT INTO balances (account_id, credit_id, amount) VALUES (NEW.to_account, NEW.credit_id, NEW.amount)
          ON CONFLICT (account_id, credit_id) DO UPDATE SET amount = amount + excluded.amount;
        END;
      CREATE TRIGGER movements_debit_balance AFTER INSERT ON movements WHEN NEW.from_account IS NOT NULL
        BEGIN
          SELECT RAISE(ABORT, 'insufficient balance')
          WHERE COALESCE((SELECT amount FROM balances WHERE account_id = NEW.from_account AND credit_id = NEW.credit_id), 0) < NEW.amount;
          UPDATE balances SET amount = amount - NEW.amount
          WHERE account_id = NEW.from_account AND credit_id = NEW.credit_id;
        END;

      CREATE TABLE retirements (
        id              TEXT PRIMARY KEY,
        credit_id       TEXT NOT NULL REFERENCES credits (id),
        amount          INTEGER NOT NULL CHECK (amount > 0),
        created_at      INTEGER NOT NULL,
        source          TEXT NOT NULL CHECK (source IN ('warehouse', 'inventory', 'onchain')),
        -- the retiring organization (warehouse/inventory retirements); NULL for on-chain ones
        organization_id TEXT REFERENCES organizations (id),
        -- on-chain retirements: owner wallet (lowercase), project contract and token as on chain
        owner_wallet    TEXT,
        project_address TEXT,
        token_id        TEXT,
        beneficiary     TEXT,
        reason          TEXT,
        comment         TEXT,
        finalized_at    INTEGER,
        movement_id     INTEGER NOT NULL UNIQUE REFERENCES movements (id),
        CHECK ((source = 'onchain') = (owner_wallet IS NOT NULL)),
        CHECK (source = 'onchain' OR organization_id IS NOT NULL)
      ) STRICT;
      CREATE INDEX retirements_by_time ON retirements (created_at DESC, id DESC);
      CREATE INDEX retirements_by_organization ON retirements (organization_id, created_at DESC);
      CREATE INDEX retirements_by_wallet ON retirements (owner_wallet, created_at DESC);
      CREATE INDEX retirements_by_credit ON retirements (credit_id);

      CREATE TABLE apps (
        id             TEXT PRIMARY KEY,
        name           TEXT NOT NULL,
        name_id        TEXT NOT NULL UNIQUE,
        public_key_pem TEXT NOT NULL,
        -- app-level grant made by the registry operator
        examiner_read  INTEGER NOT NULL DEFAULT 0 CHECK (examiner_read IN (0, 1)),
        created_at     INTEGER NOT NULL,
        updated_at     INTEGER NOT NULL
      ) STRICT;

      CREATE TABLE installations (
        id              TEXT PRIMARY KEY,
        app_id          TEXT NOT NULL REFERENCES apps (id),
        organization_id TEXT NOT NULL REFERENCES organizations (id),
        permissions     TEXT NOT NULL, -- JSON: { permissionKey: LEVEL }
        status          TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'suspended')),
        created_at      INTEGER NOT NULL,
        updated_at      INTEGER NOT NULL,
        UNIQUE (app_id, organization_id)
      ) STRICT;

      -- Opaque access tokens, stored only as SHA-256 hashes.
      CREATE TABLE access_tokens (
        id              TEXT PRIMARY KEY,
        token_hash      TEXT NOT NULL UNIQUE,
        app_id          TEXT NOT NULL REFERENCES apps (id),
        installation_id TEXT REFERENCES installations (id),
        created_at      INTEGER NOT NULL,
        expires_at      INTEGER NOT NULL,
        revoked_at      INTEGER
      ) STRICT;
      CREATE INDEX access_tokens_by_expiry ON access_tokens (expires_at);
      CREATE INDEX access_tokens_by_installation ON access_tokens (installation_id);

      CREATE TABLE reservations (
        id              TEXT PRIMARY KEY,
        organization_id TEXT NOT NULL REFERENCES organizations (id),
        credit_id       TEXT NOT NULL REFERENCES credits (id),
        amount          INTEGER NOT NULL CHECK (amount > 0),
        app_id          TEXT NOT NULL REFERENCES apps (id),
        created_at      INTEGER NOT NULL,
        reserved_to     INTEGER NOT NULL,
        -- stored state; 'pending' past reserved_to is reported (and counted) as 'expired'
        state           TEXT NOT NULL CHECK (state IN ('pending', 'cancelled', 'expired', 'pending_queue', 'processed', 'failed')),
        is_complete     INTEGER NOT NULL DEFAULT 0 CHECK (is_complete IN (0, 1)),
        retirement_id   TEXT REFERENCES retirements (id),
        transaction_id  TEXT,
        updated_at      INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX reservations_by_org ON reservations (organization_id, created_at DESC, id DESC);
      -- reservations that may still hold credits: the availability check reads only these
      CREATE INDEX reservations_holding ON reservations (organization_id, credit_id, state, reserved_to)
        WHERE state IN ('pending', 'pending_queue');

      -- Finishing a reservation records one transaction; the worker processes it exactly once.
      CREATE TABLE transactions (
        id                 TEXT PRIMARY KEY,
        reservation_id     TEXT NOT NULL UNIQUE REFERENCES reservations (id),
        action             TEXT NOT NULL CHECK (action IN ('transfer', 'transfer_retire')),
        state              TEXT NOT NULL CHECK (state IN ('pending_queue', 'processed', 'failed')),
        receiver_id        TEXT NOT NULL REFERENCES organizations (id),
        receiver_address   TEXT,
        transfer_comment   TEXT,
        price              TEXT, -- decimal text, exact as sent
        currency           TEXT,
        retirement_reason  TEXT,
        beneficiary_name   TEXT,
        retirement_comment TEXT,
        failure_reason     TEXT,
        created_at         INTEGER NOT NULL,
        updated_at         INTEGER NOT NULL,
        processed_at       INTEGER
      ) STRICT;
      CREATE INDEX transactions_queue ON transactions (created_at) WHERE state = 'pending_queue';
    `);
  },
};
