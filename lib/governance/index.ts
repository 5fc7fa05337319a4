/**
 * The governance library's door: other libraries import lib/governance through these named exports only
 * (lib/import-graph.test.ts refuses an import of its internals). Any name added here is public.
 */
export { APPROVAL_STATUSES, type ApprovalRequest, ApprovalRequestSchema, type ApprovalStatus, effectiveStatus, reviewRefusal, type ReviewRefusal, statusAfter } from './approval';
export { canonicalDigest, canonicalJson } from './canonical-json';
export { CapabilityPinSchema, driftedTools, schemaDigest, type ToolSource, UNLISTED_TOOL_VERSION } from './capability-registry';
export { currentPolicy, policyFilePath } from './current-policy';
export { assertTransition, EFFECT_STATUSES, type EffectStatus, type JournalEntry, type JournalEvidence, type JournalStore } from './effect-journal';
export { ConflictError, GovernanceError } from './errors';
export { erasureSeqs, type EvidenceSubjects, labelMismatch, type LabelSubject, labelWithoutRow, mismatchedLabel, rewrittenLabels, type MissingEvidence, missingEvidence, type PlacedBody } from './evidence-crosscheck';
export { DEFAULT_EVIDENCE_KEY_FILE, evidenceKey, evidenceSecret, loadEvidenceKey, serverKeyring, verifierKeyring } from './evidence-key';
export { ANCHOR_GENESIS, ANCHOR_ID, anchorHash, type AnchorHead, anchorNext, type ChainHead, type EvidenceKey, signHead } from './evidence-signing';
export { type ChainVerification, type RedactionSince, type StoredEvent, verifyEvidence, type WitnessAnchor } from './evidence-verify';
export { readWitness, recordWitness, witnessPath } from './evidence-witness';
export { chainNext, chainOf, evidenceBody, type EvidenceBody, EvidenceBodySchema, type EvidenceEvent, type EvidenceSink, MemoryEvidenceSink } from './evidence';
export { type GovernanceStore, type NewApprovalRequest, type StartRecords, GOVERNED_RUN_STATUSES, ownerText, parseOwner, type ResumeOwner, type RunChange, type StoredGovernedRun, type StoredRunStatus } from './governance-store';
export { type AgentDriver, type GovernedContext, type GovernedOutcome, RESUME_LEASE_MS, resumeGovernedRun, startGovernedRun } from './governed-run';
export { JournaledExecutor, type JournalStep } from './journaled-executor';
export { MemoryJournalStore } from './memory-journal-store';
export { type ApprovalTerms, evaluatePolicy, riskOf, type ToolHints, toolPolicyFor } from './policy-engine';
export { GOVERNANCE_REQUIRED_MESSAGE, governanceMandatory, type LoadedPolicy, loadPolicyFile, type PolicyDocument, type RetentionPolicy, tenantGuardrails, tenantRedaction, tenantRetention } from './policy-file';
export { DEFAULT_TENANT, type Membership, OPERATOR_SCOPES, type Principal, PrincipalSchema, type ReviewerIdentity, type Role, ROLES, RoleSchema } from './principal';
export { type BoundProposal, BoundProposalSchema, firstChangedField, proposalDigest } from './proposal';
export { hasOperationLookup, type OperationLookup, reconcileEntry, type Reconciler } from './reconcile';
export { requestOutcome, type RequestOutcome, type RequestOutcomeInput } from './request-outcome';
export { revalidate } from './revalidate';
export { type ArgumentLimit, type LimitBreach, limitBreaches, schemaLimits } from './tool-limits';
export { toolSourceOf } from './tool-source';
export { TAINTED_RUN_RULE, taintedAt, tightenForTaint } from './call-policy';

// Evidence an auditor checks with a public key, and erasure that keeps the chain verifiable (issue 33).
export { BUNDLE_FORMAT, type EvidenceBundle, evidenceBundle, EvidenceBundleSchema, verifyBundle } from './evidence-bundle';
export { DEFAULT_EVIDENCE_SIGNING_KEY_FILE, loadSigningKeys, parsePublicKeys, parseSigningKeys, publicKeysPem, rotateSigningKey, type SigningKeys, signingKeyPath } from './evidence-public-key';
export { checkReceipt, ERASED, type ErasedRun, ErasedRunSchema, type ErasureReceipt, ErasureReceiptSchema, signReceipt } from './erasure';
export { PSEUDONYM_HEX_CHARS, type Redaction, REDACTION_CLASSES, type RedactionClass, type RedactionPolicy, RedactionSchema, redactsAnything, Redactor } from './redaction';
export { newPseudonymKey, sealPseudonymKey, unsealPseudonymKey } from './pseudonym-key';
export { sealFor, UnsealError, unsealFor } from './sealing';
export { byTimeLeft } from './queue-order';
