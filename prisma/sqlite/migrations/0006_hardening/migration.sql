-- CreateTable
CREATE TABLE "SignInThrottle" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "windowStartMs" BIGINT NOT NULL,
    "attempts" INTEGER NOT NULL
);

-- CreateIndex
CREATE INDEX "SignInThrottle_windowStartMs_idx" ON "SignInThrottle"("windowStartMs");
