// The registry's first schema on PostgreSQL: migrations/0001-initial.ts table for table, column for
// column, with the same names, checks and indexes, so the same queries run on both engines. Where
// the engines differ:
// - integers are BIGINT (times are epoch milliseconds), booleans stay 0/1 integers as on SQLite;
// - text compares and sorts by code point (COLLATE "C", SQLite's BINARY), whatever the database's locale;
// - the ledger's guarantees are PL/pgSQL triggers: movements are append-only (UPDATE, DELETE and
//   TRUNCATE refused) and each movement moves its balances in the same statement, refusing an
//   overdraft ('insufficient balance'); the row lock of that UPDATE serializes concurrent debits of
//   one balance across processes, and CHECK (amount >= 0) stands behind it;
// - event tables carry a `rowid` identity, which SQLite gives every table (queries order ties by it);
// - `json_each(text)` answers the elements of a JSON array as `value`, as SQLite's does for id lists,
//   and a unary `+` on text (SQLite's way to keep the planner off an index) is the identity.
import type { PostgresMigration } from '@platform/db/postgres-migrate';

const T = 'TEXT COLLATE "C"';

export const postgresMigration0001: PostgresMigration = {
  version: 1,
  name: 'initial',
  sql: `
    CREATE FUNCTION json_each(list text) RETURNS TABLE (value text) LANGUAGE sql IMMUTABLE STRICT
      AS $$ SELECT json_array_elements_text(list::json) $$;

    CREATE FUNCTION sqlite_unary_plus(value text) RETURNS text LANGUAGE sql IMMUTABLE AS $$ SELECT value $$;
    CREATE OPERATOR + (RIGHTARG = text, FUNCTION = sqlite_unary_plus);

    CREATE FUNCTION refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION '%', TG_ARGV[0] USING ERRCODE = 'restrict_violation'; END $$;

    CREATE TABLE settings (
      key   ${T} PRIMARY KEY,
      value ${T} NOT NULL
    );

    CREATE TABLE organizations (
      id                   ${T} PRIMARY KEY,
      full_name            ${T} NOT NULL,
      type                 ${T} NOT NULL,
      country_code         ${T} NOT NULL DEFAULT '',
      city                 ${T} NOT NULL DEFAULT '',
      zip                  ${T} NOT NULL DEFAULT '',
      physical_address     ${T} NOT NULL DEFAULT '',
      registration_number  ${T} NOT NULL DEFAULT '',
      website              ${T} NOT NULL DEFAULT '',
      logo                 ${T} NOT NULL DEFAULT '',
      industry_code        ${T} NOT NULL DEFAULT '',
      industry_name        ${T} NOT NULL DEFAULT '',
      is_public            BIGINT NOT NULL DEFAULT 1 CHECK (is_public IN (0, 1)),
      is_verified          BIGINT NOT NULL DEFAULT 0 CHECK (is_verified IN (0, 1)),
      is_registry          BIGINT NOT NULL DEFAULT 0 CHECK (is_registry IN (0, 1)),
      created_at           BIGINT NOT NULL,
      updated_at           BIGINT NOT NULL
    );
    CREATE UNIQUE INDEX organizations_one_registry ON organizations (is_registry) WHERE is_registry = 1;

    CREATE TABLE sectors (id ${T} PRIMARY KEY, title ${T} NOT NULL);
    CREATE TABLE methodologies (id ${T} PRIMARY KEY, title ${T} NOT NULL);
    CREATE TABLE project_types (id ${T} PRIMARY KEY, title ${T} NOT NULL, description ${T} NOT NULL);

    CREATE TABLE projects (
      id                           ${T} PRIMARY KEY,
      num                          ${T} NOT NULL UNIQUE CHECK (num ~ '^[0-9]+$'),
      full_name                    ${T} NOT NULL,
      description                  ${T} NOT NULL,
      short_description            ${T} NOT NULL,
      registry                     ${T} NOT NULL,
      status                       ${T} NOT NULL,
      start_date                   BIGINT NOT NULL,
      crediting_period_start_date  BIGINT NOT NULL,
      estimated_annual_mitigations ${T} NOT NULL DEFAULT '[]',
      city                         ${T},
      thumbnail                    ${T},
      country_code                 ${T},
      state                        ${T},
      sector_id                    ${T} NOT NULL REFERENCES sectors (id),
      methodology_id               ${T} NOT NULL REFERENCES methodologies (id),
      type_id                      ${T} NOT NULL REFERENCES project_types (id),
      lat                          DOUBLE PRECISION,
      lng                          DOUBLE PRECISION,
      organization_id              ${T} NOT NULL REFERENCES organizations (id),
      contract_address             ${T} NOT NULL UNIQUE CHECK (contract_address ~ '^0x[0-9a-f]*$' AND length(contract_address) = 42),
      created_at                   BIGINT NOT NULL,
      updated_at                   BIGINT NOT NULL
    );
    CREATE INDEX projects_by_status ON projects (status, num);
    CREATE INDEX projects_by_organization ON projects (organization_id);

    CREATE TABLE project_organizations (
      project_id      ${T} NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
      organization_id ${T} NOT NULL REFERENCES organizations (id),
      role            ${T} NOT NULL CHECK (role IN ('proponent', 'validator')),
      position        BIGINT NOT NULL,
      PRIMARY KEY (project_id, role, organization_id)
    );

    CREATE TABLE project_documents (
      id         ${T} PRIMARY KEY,
      project_id ${T} NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
      uri        ${T} NOT NULL,
      type       ${T} NOT NULL,
      name       ${T} NOT NULL,
      is_public  BIGINT NOT NULL CHECK (is_public IN (0, 1)),
      is_kml     BIGINT NOT NULL DEFAULT 0 CHECK (is_kml IN (0, 1)),
      position   BIGINT NOT NULL
    );
    CREATE INDEX project_documents_by_project ON project_documents (project_id, position);
    CREATE UNIQUE INDEX project_documents_one_kml ON project_documents (project_id) WHERE is_kml = 1;

    CREATE TABLE project_benefits (
      project_id  ${T} NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
      benefit_id  BIGINT NOT NULL,
      title       ${T} NOT NULL,
      checked     BIGINT NOT NULL CHECK (checked IN (0, 1)),
      description ${T} NOT NULL,
      position    BIGINT NOT NULL,
      PRIMARY KEY (project_id, benefit_id)
    );

    CREATE TABLE project_events (
      id                      ${T} PRIMARY KEY,
      project_id              ${T} NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
      type                    ${T} NOT NULL,
      created_at              BIGINT NOT NULL,
      project_status          ${T} NOT NULL,
      previous_project_status ${T} NOT NULL,
      rowid                   BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE
    );
    CREATE INDEX project_events_by_project ON project_events (project_id, created_at);

    CREATE TABLE credits (
      id            ${T} PRIMARY KEY,
      project_id    ${T} NOT NULL REFERENCES projects (id),
      token_address ${T} NOT NULL,
      token_id      BIGINT NOT NULL CHECK (token_id > 0),
      type          ${T} NOT NULL CHECK (type IN ('exPost', 'exAnte')),
      vintage       ${T} NOT NULL CHECK (length(vintage) = 4),
      serialization ${T} NOT NULL UNIQUE,
      created_at    BIGINT NOT NULL,
      UNIQUE (token_address, token_id),
      UNIQUE (project_id, vintage, type)
    );

    CREATE TABLE accounts (
      id              ${T} PRIMARY KEY,
      kind            ${T} NOT NULL CHECK (kind IN ('inventory', 'warehouse', 'buffer', 'adjustment', 'registry', 'wallet')),
      organization_id ${T} REFERENCES organizations (id),
      wallet_address  ${T} UNIQUE,
      created_at      BIGINT NOT NULL,
      CHECK ((kind = 'wallet') = (wallet_address IS NOT NULL)),
      CHECK ((kind IN ('inventory', 'warehouse')) = (organization_id IS NOT NULL))
    );
    CREATE UNIQUE INDEX accounts_one_per_org ON accounts (organization_id, kind) WHERE organization_id IS NOT NULL;
    CREATE UNIQUE INDEX accounts_one_registry_kind ON accounts (kind) WHERE kind IN ('buffer', 'adjustment', 'registry');

    CREATE TABLE movements (
      id           BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
      credit_id    ${T} NOT NULL REFERENCES credits (id),
      kind         ${T} NOT NULL CHECK (kind IN ('issue', 'transfer', 'deposit', 'withdraw', 'retire', 'cancel')),
      from_account ${T} REFERENCES accounts (id),
      to_account   ${T} REFERENCES accounts (id),
      amount       BIGINT NOT NULL CHECK (amount > 0),
      created_at   BIGINT NOT NULL,
      reference    ${T},
      CHECK ((kind = 'issue') = (from_account IS NULL)),
      CHECK ((kind IN ('retire', 'cancel')) = (to_account IS NULL)),
      CHECK (from_account IS DISTINCT FROM to_account)
    );
    CREATE INDEX movements_by_credit ON movements (credit_id, kind);
    CREATE INDEX movements_by_from ON movements (from_account, credit_id);
    CREATE TRIGGER movements_append_only BEFORE UPDATE OR DELETE ON movements
      FOR EACH ROW EXECUTE FUNCTION refuse_change('the ledger is append-only');
    CREATE TRIGGER movements_append_only_truncate BEFORE TRUNCATE ON movements
      FOR EACH STATEMENT EXECUTE FUNCTION refuse_change('the ledger is append-only');

    CREATE TABLE balances (
      account_id ${T} NOT NULL REFERENCES accounts (id),
      credit_id  ${T} NOT NULL REFERENCES credits (id),
      amount     BIGINT NOT NULL CHECK (amount >= 0),
      PRIMARY KEY (account_id, credit_id)
    );
    CREATE INDEX balances_by_credit ON balances (credit_id);
    CREATE FUNCTION movements_move_balances() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.from_account IS NOT NULL THEN
          UPDATE balances SET amount = amount - NEW.amount
            WHERE account_id = NEW.from_account AND credit_id = NEW.credit_id AND amount >= NEW.amount;
          IF NOT FOUND THEN RAISE EXCEPTION 'insufficient balance' USING ERRCODE = 'check_violation'; END IF;
        END IF;
        IF NEW.to_account IS NOT NULL THEN
          INSERT INTO balances (account_id, credit_id, amount) VALUES (NEW.to_account, NEW.credit_id, NEW.amount)
            ON CONFLICT (account_id, credit_id) DO UPDATE SET amount = balances.amount + excluded.amount;
        END IF;
        RETURN NULL;
      END $$;
    CREATE TRIGGER movements_balances AFTER INSERT ON movements
      FOR EACH ROW EXECUTE FUNCTION movements_move_balances();

    CREATE TABLE credit_events (
      id                      ${T} PRIMARY KEY,
      credit_id               ${T} NOT NULL REFERENCES credits (id),
      type                    ${T} NOT NULL,
      credit_type             ${T} NOT NULL,
      amount                  BIGINT NOT NULL CHECK (amount > 0),
      created_at              BIGINT NOT NULL,
      monitoring_period_start BIGINT NOT NULL,
      monitoring_period_end   BIGINT NOT NULL CHECK (monitoring_period_end >= monitoring_period_start),
      verification_body_id    ${T} NOT NULL REFERENCES organizations (id),
      movement_id             BIGINT REFERENCES movements (id),
      rowid                   BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE
    );
    CREATE INDEX credit_events_by_credit ON credit_events (credit_id, created_at);

    CREATE TABLE credit_event_files (
      id        ${T} PRIMARY KEY,
      event_id  ${T} NOT NULL REFERENCES credit_events (id) ON DELETE CASCADE,
      file_name ${T} NOT NULL,
      size      BIGINT NOT NULL CHECK (size >= 0),
      url       ${T} NOT NULL,
      type      ${T} NOT NULL,
      position  BIGINT NOT NULL
    );
    CREATE INDEX credit_event_files_by_event ON credit_event_files (event_id, position);

    CREATE TABLE retirements (
      id              ${T} PRIMARY KEY,
      credit_id       ${T} NOT NULL REFERENCES credits (id),
      amount          BIGINT NOT NULL CHECK (amount > 0),
      created_at      BIGINT NOT NULL,
      source          ${T} NOT NULL CHECK (source IN ('warehouse', 'inventory', 'onchain')),
      organization_id ${T} REFERENCES organizations (id),
      owner_wallet    ${T},
      project_address ${T},
      token_id        ${T},
      beneficiary     ${T},
      reason          ${T},
      comment         ${T},
      finalized_at    BIGINT,
      movement_id     BIGINT NOT NULL UNIQUE REFERENCES movements (id),
      CHECK ((source = 'onchain') = (owner_wallet IS NOT NULL)),
      CHECK (source = 'onchain' OR organization_id IS NOT NULL)
    );
    CREATE INDEX retirements_by_time ON retirements (created_at DESC, id DESC);
    CREATE INDEX retirements_by_organization ON retirements (organization_id, created_at DESC);
    CREATE INDEX retirements_by_wallet ON retirements (owner_wallet, created_at DESC);
    CREATE INDEX retirements_by_credit ON retirements (credit_id);

    CREATE TABLE apps (
      id             ${T} PRIMARY KEY,
      name           ${T} NOT NULL,
      name_id        ${T} NOT NULL UNIQUE,
      public_key_pem ${T} NOT NULL,
      examiner_read  BIGINT NOT NULL DEFAULT 0 CHECK (examiner_read IN (0, 1)),
      created_at     BIGINT NOT NULL,
      updated_at     BIGINT NOT NULL
    );

    CREATE TABLE installations (
      id              ${T} PRIMARY KEY,
      app_id          ${T} NOT NULL REFERENCES apps (id),
      organization_id ${T} NOT NULL REFERENCES organizations (id),
      permissions     ${T} NOT NULL,
      status          ${T} NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'suspended')),
      created_at      BIGINT NOT NULL,
      updated_at      BIGINT NOT NULL,
      UNIQUE (app_id, organization_id)
    );

    CREATE TABLE access_tokens (
      id              ${T} PRIMARY KEY,
      token_hash      ${T} NOT NULL UNIQUE,
      app_id          ${T} NOT NULL REFERENCES apps (id),
      installation_id ${T} REFERENCES installations (id),
      created_at      BIGINT NOT NULL,
      expires_at      BIGINT NOT NULL,
      revoked_at      BIGINT
    );
    CREATE INDEX access_tokens_by_expiry ON access_tokens (expires_at);
    CREATE INDEX access_tokens_by_installation ON access_tokens (installation_id);

    CREATE TABLE reservations (
      id              ${T} PRIMARY KEY,
      organization_id ${T} NOT NULL REFERENCES organizations (id),
      credit_id       ${T} NOT NULL REFERENCES credits (id),
      amount          BIGINT NOT NULL CHECK (amount > 0),
      app_id          ${T} NOT NULL REFERENCES apps (id),
      created_at      BIGINT NOT NULL,
      reserved_to     BIGINT NOT NULL,
      state           ${T} NOT NULL CHECK (state IN ('pending', 'cancelled', 'expired', 'pending_queue', 'processed', 'failed')),
      is_complete     BIGINT NOT NULL DEFAULT 0 CHECK (is_complete IN (0, 1)),
      retirement_id   ${T} REFERENCES retirements (id),
      transaction_id  ${T},
      updated_at      BIGINT NOT NULL
    );
    CREATE INDEX reservations_by_org ON reservations (organization_id, created_at DESC, id DESC);
    CREATE INDEX reservations_holding ON reservations (organization_id, credit_id, state, reserved_to)
      WHERE state IN ('pending', 'pending_queue');

    CREATE TABLE transactions (
      id                 ${T} PRIMARY KEY,
      reservation_id     ${T} NOT NULL UNIQUE REFERENCES reservations (id),
      action             ${T} NOT NULL CHECK (action IN ('transfer', 'transfer_retire')),
      state              ${T} NOT NULL CHECK (state IN ('pending_queue', 'processed', 'failed')),
      receiver_id        ${T} NOT NULL REFERENCES organizations (id),
      receiver_address   ${T},
      transfer_comment   ${T},
      price              ${T},
      currency           ${T},
      retirement_reason  ${T},
      beneficiary_name   ${T},
      retirement_comment ${T},
      failure_reason     ${T},
      created_at         BIGINT NOT NULL,
      updated_at         BIGINT NOT NULL,
      processed_at       BIGINT
    );
    CREATE INDEX transactions_queue ON transactions (created_at) WHERE state = 'pending_queue';
  `,
};
